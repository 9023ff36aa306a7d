// Package verbsdiag is the "verbs_diagnose" step module, the heart of
// prova's GPFS check: on each node it correlates read-only evidence (ibstat
// and ibdev2netdev, ofed_info -s, the node's verbsPorts and verbsRdma from
// mmlsconfig -Y, mmfsadm test verbs status and conn, mmlscluster, the GPFS
// log since the daemon started) with cross-node facts passed as arguments
// (every host's OFED version, the peers verbs_conn found missing) and names
// the likely cause when the node has fewer RDMA peers than expected, or when
// a verbsPorts entry is unusable.
//
// Causes, in the order the evidence is weighed: port_missing, port_down,
// ofed_missing, ofed_mismatch, library_not_loaded, pagepool_not_registered
// (the log says the HCA could not register the pagepool), verbs_not_started,
// connect_failed (no peer reachable although the node looks fine: firewall
// or lossless network), peer_side (this node reaches others; the missing
// peers have the problem). The module never fails the step itself: an
// assert on its outputs does, with its explanation as the message.
package verbsdiag
