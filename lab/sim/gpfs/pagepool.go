package gpfs

// pagepoolUnregistrable decides whether the HCA of n can register the
// daemon's pagepool (the scenario's faults.pagepool_register_limit). When it
// cannot, it logs the two messages IBM documents for this failure
// (samples/gpfs/mmfs-log-verbs-rdma-shutdown-pagepool-not-registered-docs-5.2.3.txt,
// with the usual timestamp and severity) and reports true: VERBS RDMA shuts
// down and the node talks TCP.
func (s *session) pagepoolUnregistrable(n *Node) bool {
	m := s.models[n.Name]
	if m == nil || m.Faults.PagepoolRegisterLimit == "" {
		return false
	}
	limit, ok := sizeBytes(m.Faults.PagepoolRegisterLimit)
	pool, ok2 := sizeBytes(n.Eff["pagepool"])
	if !ok || !ok2 || pool <= limit {
		return false
	}
	s.logs.add(n.Name, "E", "VERBS RDMA Shutdown because pagepool could not be registered to Infiniband.")
	s.logs.add(n.Name, "E", "VERBS RDMA Try increasing Infiniband device MTTs or reducing pagepool size.")
	return true
}
