// Package rdmalat is the rdma_latency step module: ib_write_lat (perftest)
// between pairs of nodes, scheduled so that no node is in two tests at once,
// with each node's latency judged against an absolute threshold and against
// the cluster (outliers above a factor of the cluster median).
//
// It is a module.ClusterModule: the engine hands it every host of the step
// at once, because a latency test needs a server on one host and a client on
// another. It runs only perftest and reads only its output; it changes
// nothing on the hosts.
package rdmalat
