package rdma

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/provadev/prova/lab/model"
	"github.com/provadev/prova/lab/sim"
)

// IP simulates iproute2's `ip -o addr show` (also `ip -o -4 addr [show]`):
// lo, then one line per HCA port netdev that is up, with its address
// (model.Node.PortAddress), in the one-line layout of
// samples/iproute2. Other ip subcommands are not simulated.
func IP() sim.Tool {
	return sim.Tool{Name: "ip", Installed: func(*model.Node) bool { return true }, Run: runIP, InProcess: true}
}

func runIP(_ context.Context, e *sim.Env) int {
	n, err := e.Model()
	if err != nil {
		return e.Fail(err)
	}
	args := slices.DeleteFunc(slices.Clone(e.Args), func(a string) bool { return a == "-4" })
	switch strings.Join(args, " ") {
	case "-o addr", "-o addr show", "-o address show", "-o a":
	default:
		fmt.Fprintf(e.Stderr, "ip: prova lab simulates only 'ip -o [-4] addr show' (got %q)\n", strings.Join(e.Args, " "))
		return 255
	}
	fmt.Fprintf(e.Stdout, "1: lo    inet 127.0.0.1/8 scope host lo\\       valid_lft forever preferred_lft forever\n")
	idx := 2
	for i, h := range n.HCAs {
		for _, p := range h.Ports {
			a := n.PortAddress(i, p)
			if a == "" || !p.NetdevUp {
				continue
			}
			b := strings.Split(a, ".")
			fmt.Fprintf(e.Stdout, "%d: %s    inet %s/16 brd %s.%s.255.255 scope global %s\\       valid_lft forever preferred_lft forever\n",
				idx, p.Netdev, a, b[0], b[1], p.Netdev)
			idx++
		}
	}
	return 0
}
