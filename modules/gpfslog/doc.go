// Package gpfslog is the "gpfs_log" step module: it reads the end of the
// GPFS log (/var/adm/ras/mmfs.log.latest) on each node and summarises what
// the current daemon run logged about RDMA: whether VERBS RDMA started, the
// peers it connected to and closed connections with, a missing RDMA
// library, and error lines.
//
// Only entries since the daemon last started count; when the stretch read
// (the last 5000 lines) shows no start, all of it counts and start_found is
// false. A log that does not exist is an empty result. It only reads.
package gpfslog
