// Package rdmaports is the "rdma_ports" step module: it runs ibstat and
// ibdev2netdev on each host and returns its HCAs and ports as typed outputs
// (state, physical state, rate, link layer, netdev and whether it is up),
// the ports that are Active with a LinkUp physical state, and which of the
// required ports are missing or not active.
//
// A host without an HCA (ibstat prints nothing and exits 0) is reported as
// has_hca = false, never as an empty success. ibdev2netdev is part of
// MLNX_OFED: where it is missing the netdev outputs are empty. The module
// only reads; assertions on its outputs belong in an assert step.
package rdmaports
