// Package gpfsrestart is the "gpfs_restart" step module: it restarts GPFS
// daemons so that configuration waiting for a restart takes effect, either
// the whole cluster at once (mmshutdown -a, mmstartup -a) or node by node
// (rolling), waiting after each node until mmgetstate shows it active.
//
// Rolling never has more than one quorum node down: nodes restart one at a
// time, non-quorum nodes first, and a quorum node is only taken down when
// every other quorum node is active. An empty node list is nothing to do.
// The module runs its commands from one node (run_once); it does not decide
// which nodes need a restart (gpfs_config's restart_pending does).
package gpfsrestart
