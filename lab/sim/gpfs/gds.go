package gpfs

import (
	"fmt"
	"strings"

	"github.com/provadev/prova/lab/sim"
)

// GDSReads reports whether the GPFS daemon on the command's node serves
// GPUDirect Storage reads (RDMA from the NSD servers into GPU memory), as
// IBM describes it: the daemon is up with VERBS RDMA started, and its
// effective verbsGPUDirectStorage and verbsRdmaSend are yes. Otherwise
// GPFS serves a cuFile read in compatibility mode (the buffered path);
// why says which requirement is missing. unlisted are the entries of ports
// ("mlx5_1/1", the RDMA ports cuFile uses) that the daemon's verbsPorts
// does not name: IBM says GDS I/O through them fails with an I/O error.
// The lab's gdsio uses it.
func GDSReads(e *sim.Env, ports []string) (ok bool, why string, unlisted []string, err error) {
	err = open(e, func(s *session) (bool, error) {
		n := s.self()
		switch {
		case n == nil:
			why = "node is not in the GPFS cluster"
			return false, nil
		case !n.Started:
			why = "GPFS daemon not running"
			return false, nil
		case !n.Verbs:
			why = "VERBS RDMA not started"
		case n.Eff["verbsGPUDirectStorage"] != "yes":
			why = "verbsGPUDirectStorage is not yes"
		case n.Eff["verbsRdmaSend"] != "yes":
			why = "verbsRdmaSend is not yes"
		default:
			ok = true
		}
		listed := map[string]bool{}
		for _, entry := range strings.Fields(n.Eff["verbsPorts"]) {
			vp := parsePort(entry)
			listed[fmt.Sprintf("%s/%d", vp.Dev, vp.Port)] = true
		}
		for _, p := range ports {
			if !listed[p] {
				unlisted = append(unlisted, p)
			}
		}
		return false, nil
	})
	return ok, why, unlisted, err
}
