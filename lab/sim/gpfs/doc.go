// Package gpfs simulates the IBM Storage Scale (GPFS) administration and
// diagnosis commands of a lab node: mmlscluster, mmchconfig, mmlsconfig,
// mmdiag (--config, --network), mmgetstate, mmstartup, mmshutdown and
// mmfsadm (test verbs status|conn), plus the daemon's log
// /var/adm/ras/mmfs.log.latest in each node's file tree.
//
// GPFS configuration is cluster-wide: every node reads and updates one state
// file (DIR/state/gpfs.json) under the lab's flock (sim.Env.Update). The
// first command of a lab creates it from the node models (every node with
// the "gpfs" file system is a member, daemons active, verbsRdma disabled);
// nodes added by "lab expand" join at the next command, active. Those
// silent updates are not recorded as state changes; mmchconfig, mmstartup
// and mmshutdown are.
//
// The daemon's effective configuration is a snapshot of the configured
// values taken when it starts, so mmchconfig of verbs* or pagepool shows
// in mmlsconfig at once and in mmdiag --config only after a restart. At
// start the simulator decides, from the node models (package lab/model),
// whether verbs starts on the node and which peers it has RDMA connections
// to; everything else falls back to TCP silently, as GPFS does. The rules
// are in docs/lab-gpfs.md.
//
// The package prints what the real tools print, following the samples in
// samples/gpfs; it never imports prova's parsers (only its cross test does).
// It does not simulate file systems, NSDs, mounts or I/O.
package gpfs
