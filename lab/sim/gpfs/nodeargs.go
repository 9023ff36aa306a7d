package gpfs

import "strings"

// nodeArgs reads the [-a | -N nodes] arguments of mmstartup and
// mmshutdown; no argument means this node. It prints the error itself.
func (s *session) nodeArgs(cmd, usage string) ([]*Node, bool) {
	args := s.e.Args
	var nodes []*Node
	switch {
	case len(args) == 0:
		nodes = []*Node{s.self()}
	case len(args) == 1 && args[0] == "-a":
		nodes = s.c.all()
	case len(args) == 2 && args[0] == "-N":
		sel, err := s.c.selectNodes(args[1])
		if err != nil || len(sel) == 0 {
			s.err("%s: Incorrect node %s specified for command.\n", cmd, strings.TrimSpace(args[1]))
			s.failed(cmd)
			return nil, false
		}
		nodes = sel
	default:
		s.err("%s", usage)
		return nil, false
	}
	if nodes[0] == nil {
		s.err("%s: This node does not belong to a GPFS cluster.\n", cmd)
		return nil, false
	}
	return nodes, true
}
