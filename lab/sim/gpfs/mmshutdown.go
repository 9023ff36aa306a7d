package gpfs

import (
	"fmt"

	"github.com/provadev/prova/lab/sim"
)

// Mmshutdown simulates mmshutdown [-a | -N nodes]
// (samples/gpfs/mmshutdown-a-*.txt, mmshutdown-N-single-node-ok-*.txt).
func Mmshutdown() sim.Tool { return command("mmshutdown", runMmshutdown) }

func runMmshutdown(s *session) (int, bool) {
	nodes, ok := s.nodeArgs("mmshutdown", "Usage: mmshutdown [-t UnmountTimeout] [-a | -N {Node[,Node...] | NodeFile | NodeClass}]\n")
	if !ok {
		return 1, false
	}
	var running []*Node
	for _, n := range nodes {
		if n.Started {
			running = append(running, n)
		}
	}
	s.out("%s: mmshutdown: Starting force unmount of GPFS file systems\n", s.date())

	s.out("%s: mmshutdown: Shutting down GPFS daemons\n", s.date())
	var lines []string
	for _, n := range running {
		s.out("%s:  Shutting down!\n", n.Name)
		kernel := "5.14.0"
		if m := s.models[n.Name]; m != nil {
			kernel = m.Kernel
		}
		lines = append(lines, fmt.Sprintf("%s:  'shutdown' command about to kill process %d", n.Name, n.PID),
			fmt.Sprintf("%s:  Unloading modules from /lib/modules/%s/extra", n.Name, kernel))
	}
	for _, mod := range []string{"mmfs26", "mmfslinux"} {
		for _, n := range running {
			lines = append(lines, fmt.Sprintf("%s:  Unloading module %s", n.Name, mod))
		}
	}
	for _, l := range lines {
		s.out("%s\n", l)
	}
	for _, n := range running {
		s.stop(n.Name, s.now)
	}

	s.out("%s: mmshutdown: Finished\n", s.date())
	return 0, len(running) > 0
}
