package rdma

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/provadev/prova/lab/model"
	"github.com/provadev/prova/lab/sim"
)

// Ibstatus simulates the ibstatus script: "ibstatus [DEVICE[:PORT]]...".
// With no HCA it prints "Fatal error:  No devices" and exits 255.
func Ibstatus() sim.Tool { return sim.Tool{Name: "ibstatus", Run: runIbstatus, InProcess: true} }

func runIbstatus(_ context.Context, e *sim.Env) int {
	n, err := e.Model()
	if err != nil {
		return e.Fail(err)
	}
	if !n.HasRDMA() {
		fmt.Fprintln(e.Stderr, "Fatal error:  No devices")
		return 255
	}
	type sel struct {
		h model.HCA
		p model.Port
	}
	var out []sel
	if len(e.Args) == 0 {
		for _, h := range n.HCAs {
			for _, p := range h.Ports {
				out = append(out, sel{h, p})
			}
		}
	}
	for _, a := range e.Args {
		dev, ps, _ := strings.Cut(a, ":")
		port, _ := strconv.Atoi(ps)
		h, ok := n.HCA(dev)
		if !ok {
			fmt.Fprintf(e.Stderr, "Fatal error:  device '%s': sys files not found (/sys/class/infiniband/%s/ports)\n", dev, dev)
			return 255
		}
		for _, p := range h.Ports {
			if port == 0 || p.Num == port {
				out = append(out, sel{*h, p})
			}
		}
	}
	w := e.Stdout
	for i, s := range out {
		if i > 0 {
			fmt.Fprintln(w)
		}
		p := s.p
		fmt.Fprintf(w, "Infiniband device '%s' port %d status:\n", s.h.Name, p.Num)
		fmt.Fprintf(w, "\tdefault gid:\t %s\n", model.GID(p.GUID))
		fmt.Fprintf(w, "\tbase lid:\t 0x%x\n", p.LID)
		fmt.Fprintf(w, "\tsm lid:\t\t 0x%x\n", p.SMLID)
		fmt.Fprintf(w, "\tstate:\t\t %d: %s\n", model.StateCode(p.State), model.StateUpper(p.State))
		fmt.Fprintf(w, "\tphys state:\t %d: %s\n", model.PhysCode(p.PhysState), p.PhysState)
		fmt.Fprintf(w, "\trate:\t\t %s\n", model.RateText(p.Rate))
		fmt.Fprintf(w, "\tlink_layer:\t %s\n", p.LinkLayer)
	}
	return 0
}
