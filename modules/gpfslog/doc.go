// Package gpfslog is the "gpfs_log" step module: it reads the GPFS log
// (/var/adm/ras/mmfs.log.latest) on each node from the daemon's last start
// and summarises what the current daemon run logged about RDMA: whether
// VERBS RDMA started, the peers it connected to and closed connections
// with, a missing RDMA library, and error lines.
//
// Only entries since the daemon last started count. The read is bounded
// (gpfscmd.LogHeadLines from the start and gpfscmd.LogTailLines at the end
// of a longer run, the message saying which lines were not read); when the
// log shows no start, all of it counts and start_found is false. A log that
// does not exist is an empty result. It only reads.
package gpfslog
