package gpfs

// connLayout is the scenario's faults.verbs_conn_layout for the node the
// command runs on ("" for the layout of docs/gpfs-verbs-conn.md).
func (s *session) connLayout() string {
	if m := s.models[s.e.Node]; m != nil {
		return m.Faults.VerbsConnLayout
	}
	return ""
}

// unreadableConns prints the connections in a layout prova's parser does
// not read (numbered records, no header), standing in for the first real
// cluster whose mmfsadm prints something no public sample showed: the
// title, a blank line, then "[i] address name qp=0x... STATE" per
// connection, so the first record is line 3.
func (s *session) unreadableConns(n *Node) {
	s.out("RDMA Connections between nodes:\n\n")
	for i, cn := range n.Conns {
		p := s.c.node(cn.Peer)
		s.out("  [%d] %s %s qp=0x%x RTS\n", i, p.Address, p.Name, 0x1a0+cn.Cookie)
	}
	if len(n.Conns) == 0 {
		s.out("  [-] no records\n")
	}
}
