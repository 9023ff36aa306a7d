package rdma

import (
	"context"
	"fmt"
	"io"
	"strconv"

	"github.com/provadev/prova/lab/model"
	"github.com/provadev/prova/lab/sim"
)

// Ibstat simulates infiniband-diags ibstat: "ibstat [-l|-p|-s] [CA [PORT]]".
// With no HCA it prints nothing and exits 0, as the real tool does.
func Ibstat() sim.Tool { return sim.Tool{Name: "ibstat", Run: runIbstat, InProcess: true} }

func runIbstat(_ context.Context, e *sim.Env) int {
	n, err := e.Model()
	if err != nil {
		return e.Fail(err)
	}
	var list, ports, short bool
	var pos []string
	for _, a := range e.Args {
		switch a {
		case "-l", "--list_of_cas":
			list = true
		case "-p", "--port_list":
			ports = true
		case "-s", "--short":
			short = true
		default:
			if len(a) > 1 && a[0] == '-' {
				fmt.Fprintf(e.Stderr, "ibstat: unrecognized option '%s'\n", a)
				return 255
			}
			pos = append(pos, a)
		}
	}
	hcas := n.HCAs
	if len(pos) > 0 {
		h, ok := n.HCA(pos[0])
		if !ok {
			fmt.Fprintf(e.Stderr, "ibpanic: [%d] main: stat of IB device '%s' failed: No such file or directory\n", 1000+n.Index, pos[0])
			return 255
		}
		hcas = []model.HCA{*h}
	}
	w := e.Stdout
	switch {
	case list:
		for _, h := range hcas {
			fmt.Fprintln(w, h.Name)
		}
		return 0
	case ports:
		for _, h := range hcas {
			for _, p := range h.Ports {
				fmt.Fprintln(w, model.GUIDHex(p.GUID))
			}
		}
		return 0
	}
	if len(pos) > 1 {
		num, err := strconv.Atoi(pos[1])
		p, ok := hcas[0].Port(num)
		if err != nil || !ok {
			fmt.Fprintf(e.Stderr, "ibpanic: [%d] main: stat of IB device '%s' port %s failed: No such file or directory\n", 1000+n.Index, pos[0], pos[1])
			return 255
		}
		fmt.Fprintf(w, "CA: '%s'\nPort %d:\n", hcas[0].Name, p.Num)
		ibstatPort(w, p, "")
		return 0
	}
	for _, h := range hcas {
		fmt.Fprintf(w, "CA '%s'\n", h.Name)
		fmt.Fprintf(w, "\tCA type: %s\n", h.CAType)
		fmt.Fprintf(w, "\tNumber of ports: %d\n", len(h.Ports))
		fmt.Fprintf(w, "\tFirmware version: %s\n", h.Firmware)
		fmt.Fprintf(w, "\tHardware version: 0\n")
		fmt.Fprintf(w, "\tNode GUID: %s\n", model.GUIDHex(h.NodeGUID))
		fmt.Fprintf(w, "\tSystem image GUID: %s\n", model.GUIDHex(h.NodeGUID))
		if short {
			continue
		}
		for i := range h.Ports {
			fmt.Fprintf(w, "\tPort %d:\n", h.Ports[i].Num)
			ibstatPort(w, &h.Ports[i], "\t\t")
		}
	}
	return 0
}

func ibstatPort(w io.Writer, p *model.Port, in string) {
	mask := "0x2651e848"
	if p.LinkLayer == "Ethernet" {
		mask = "0x00010000"
	}
	fmt.Fprintf(w, "%sState: %s\n", in, p.State)
	fmt.Fprintf(w, "%sPhysical state: %s\n", in, p.PhysState)
	fmt.Fprintf(w, "%sRate: %d\n", in, p.Rate)
	fmt.Fprintf(w, "%sBase lid: %d\n", in, p.LID)
	fmt.Fprintf(w, "%sLMC: 0\n", in)
	fmt.Fprintf(w, "%sSM lid: %d\n", in, p.SMLID)
	fmt.Fprintf(w, "%sCapability mask: %s\n", in, mask)
	fmt.Fprintf(w, "%sPort GUID: %s\n", in, model.GUIDHex(p.GUID))
	fmt.Fprintf(w, "%sLink layer: %s\n", in, p.LinkLayer)
}
