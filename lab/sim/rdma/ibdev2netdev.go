package rdma

import (
	"context"
	"fmt"

	"github.com/provadev/prova/lab/sim"
)

// Ibdev2netdev simulates MLNX_OFED's ibdev2netdev ("-v" for the verbose
// form). It is installed only where OFED is.
func Ibdev2netdev() sim.Tool {
	return sim.Tool{Name: "ibdev2netdev", Installed: hasOFED, Run: runIbdev2netdev, InProcess: true}
}

func runIbdev2netdev(_ context.Context, e *sim.Env) int {
	n, err := e.Model()
	if err != nil {
		return e.Fail(err)
	}
	verbose := false
	for _, a := range e.Args {
		if a == "-v" {
			verbose = true
		}
	}
	for _, h := range n.HCAs {
		for _, p := range h.Ports {
			up := "Down"
			if p.NetdevUp {
				up = "Up"
			}
			if p.Netdev == "" {
				continue
			}
			if verbose {
				state := "DOWN"
				if p.State == "Active" {
					state = "ACTIVE"
				}
				fmt.Fprintf(e.Stdout, "%s %s (%s - %s) %s fw %s port %d (%-6s) ==> %s (%s)\n",
					h.PCI, h.Name, h.CAType, h.Serial, h.Board, h.Firmware, p.Num, state, p.Netdev, up)
				continue
			}
			fmt.Fprintf(e.Stdout, "%s port %d ==> %s (%s)\n", h.Name, p.Num, p.Netdev, up)
		}
	}
	return 0
}
