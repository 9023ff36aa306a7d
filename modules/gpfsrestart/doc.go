// Package gpfsrestart is the "gpfs_restart" step module: it restarts GPFS
// daemons so that configuration waiting for a restart takes effect, either
// the whole cluster at once (mmshutdown -a, mmstartup -a) or rolling, in
// waves that keep the file system up.
//
// Rolling reads which nodes are quorum nodes and managers (mmlscluster),
// which serve which NSD (mmlsnsd) and whether tiebreaker disks are set
// (mmlsconfig -Y). Plain nodes restart in batches (batch, default 10%);
// then NSD servers, managers and quorum nodes, in waves that never hold
// two servers of one NSD nor more quorum nodes than keep quorum. Before a
// wave goes down the module checks, against mmgetstate -a, that no NSD
// would lose its last server and that quorum holds; a wave starts only
// when the previous one is active and has its file systems mounted again
// (mmlsmount all -L). A wave that does not come back within max_wait stops
// the rollout; the rest stays pending.
//
// Before anything, the nodes an interrupted run left down (named in the
// marker file it wrote before each mmshutdown) are started; then every
// quorum node and NSD server must be active, or nothing is restarted. On
// Ctrl-C during a wave the module brings that wave back (bounded by
// finish_timeout) before it returns. The module runs its commands from one
// node (run_once); it does not decide which nodes need a restart
// (gpfs_config's restart_pending does).
package gpfsrestart
