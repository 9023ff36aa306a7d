// Package mmchconfig is the "mmchconfig" step module: it sets GPFS
// configuration attributes with one mmchconfig command, changing only the
// attributes whose configured value (mmlsconfig -Y, for the nodes in scope)
// differs from the requested one, and says which changes need a daemon
// restart.
//
// Before anything changes, in plan and in apply, it refuses a pagepool
// larger than pagepool_max_fraction of the host's MemTotal: pagepool is
// pinned memory and a node that cannot hold it runs out of memory. The
// module does not restart daemons (gpfs_restart does) and does not read the
// running daemon's values (gpfs_config does). Run it once per cluster, on
// an admin node (run_once = true).
package mmchconfig
