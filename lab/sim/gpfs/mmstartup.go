package gpfs

import "github.com/provadev/prova/lab/sim"

// Mmstartup simulates mmstartup [-a | -N nodes]: the daemons start now,
// arbitrate, and become active after the settle time if a quorum runs
// (samples/gpfs/mmstartup-a-*.txt). Each start appends to the node's
// mmfs.log.latest.
func Mmstartup() sim.Tool { return command("mmstartup", runMmstartup) }

func runMmstartup(s *session) (int, bool) {
	nodes, ok := s.nodeArgs("mmstartup", "Usage: mmstartup [-a | -N {Node[,Node...] | NodeFile | NodeClass}] [-E envVar=value ...]\n")
	if !ok {
		return 1, false
	}
	s.out("%s: mmstartup: Starting GPFS ...\n", s.date())
	changed := false
	for _, n := range nodes {
		if n.Started {
			s.out("%s:  The GPFS subsystem is already active.\n", n.Name)
			continue
		}
		changed = s.start(n.Name, s.now) || changed
	}
	s.markReady()
	return 0, changed
}
