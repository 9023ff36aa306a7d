package nvsmi

import (
	"context"
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"

	"github.com/provadev/prova/lab/model"
	"github.com/provadev/prova/lab/sim"
)

// Lspci simulates `lspci -vvv` (and -D, -vvv -D) on nodes with GPUs or
// HCAs: the PCIe tree the model implies (a root port per PCIe switch, the
// switch's upstream port and one downstream port per device on it, a root
// port of its own for a device on no switch), GPUs at model.Node.GPUPCI
// and HCAs at their PCI address. Each block holds only the lines prova
// reads, in lspci's layout (samples/lspci): the device line, Bus:
// primary/secondary/subordinate for bridges and, on switch downstream
// ports, Access Control Services with ACSCtl: redirecting (ReqRedir+
// CmpltRedir+, as the sample) on the switches the model lists in
// ACSSwitches, all off elsewhere. Real lspci prints many more lines per
// device.
func Lspci() sim.Tool {
	return sim.Tool{Name: "lspci", Installed: func(n *model.Node) bool { return len(n.GPUs) > 0 || len(n.HCAs) > 0 }, Run: runLspci, InProcess: true}
}

type pciDev struct {
	bus, dev    int
	class, desc string
	sec, sub    int // bridges only (sec > 0)
	acs         string
}

func runLspci(_ context.Context, e *sim.Env) int {
	n, err := e.Model()
	if err != nil {
		return e.Fail(err)
	}
	domain := false
	for _, a := range e.Args {
		switch a {
		case "-vvv":
		case "-D":
			domain = true
		default:
			fmt.Fprintf(e.Stderr, "lspci: prova lab simulates only 'lspci -vvv [-D]' (got %q)\n", strings.Join(e.Args, " "))
			return 1
		}
	}
	devs := tree(n)
	sort.Slice(devs, func(i, j int) bool {
		if devs[i].bus != devs[j].bus {
			return devs[i].bus < devs[j].bus
		}
		return devs[i].dev < devs[j].dev
	})
	printTree(e.Stdout, devs, domain)
	return 0
}

const (
	acsOn  = "SrcValid+ TransBlk- ReqRedir+ CmpltRedir+ UpstreamFwd+ EgressCtrl- DirectTrans-"
	acsOff = "SrcValid- TransBlk- ReqRedir- CmpltRedir- UpstreamFwd- EgressCtrl- DirectTrans-"
)

func tree(n *model.Node) []pciDev {
	type member struct {
		bus         int
		class, desc string
	}
	bySwitch := map[string][]member{}
	var order []string
	var loose []member
	add := func(sw string, m member) {
		if sw == "" {
			loose = append(loose, m)
			return
		}
		if _, ok := bySwitch[sw]; !ok {
			order = append(order, sw)
		}
		bySwitch[sw] = append(bySwitch[sw], m)
	}
	for _, h := range n.HCAs {
		if b, ok := model.PCIBus(h.PCI); ok {
			add(h.PCIeSwitch, member{b, "Infiniband controller", "Mellanox Technologies MT2910 Family [ConnectX-7]"})
		}
	}
	for i, g := range n.GPUs {
		add(g.PCIeSwitch, member{n.GPUBus(i), "3D controller", "NVIDIA Corporation " + g.Model + " (rev a1)"})
	}
	// taken holds the buses devices and earlier switches use: a switch's
	// upstream and downstream buses go below its lowest device, on buses
	// nothing else holds, so no address is printed twice (real lspci
	// lists each function once) when a scenario moves a device to another
	// switch (gds-numa-sys.hcl puts mlx5_0 on sw1).
	taken := map[int]bool{}
	for _, ms := range bySwitch {
		for _, m := range ms {
			taken[m.bus] = true
		}
	}
	for _, m := range loose {
		taken[m.bus] = true
	}
	var out []pciDev
	root := 1
	for _, sw := range order {
		ms := bySwitch[sw]
		lo, hi := ms[0].bus, ms[0].bus
		for _, m := range ms {
			lo, hi = min(lo, m.bus), max(hi, m.bus)
		}
		up := lo - 3
		for up > 1 && (taken[up] || taken[up+1]) {
			up--
		}
		taken[up], taken[up+1] = true, true
		acs := acsOff
		if slices.Contains(n.ACSSwitches, sw) {
			acs = acsOn
		}
		out = append(out, pciDev{bus: 0, dev: root, class: "PCI bridge", desc: "Intel Corporation Device 352a (rev 04) (prog-if 00 [Normal decode])", sec: up, sub: hi},
			pciDev{bus: up, class: "PCI bridge", desc: "Broadcom / LSI PEX890xx PCIe Gen 5 Switch (rev b0) (prog-if 00 [Normal decode])", sec: up + 1, sub: hi})
		for k, m := range ms {
			out = append(out, pciDev{bus: up + 1, dev: k, class: "PCI bridge", desc: "Broadcom / LSI PEX890xx PCIe Gen 5 Switch (rev b0) (prog-if 00 [Normal decode])",
				sec: m.bus, sub: m.bus, acs: acs}, pciDev{bus: m.bus, class: m.class, desc: m.desc})
		}
		root++
	}
	for _, m := range loose {
		out = append(out, pciDev{bus: 0, dev: root, class: "PCI bridge", desc: "Intel Corporation Device 352a (rev 04) (prog-if 00 [Normal decode])", sec: m.bus, sub: m.bus},
			pciDev{bus: m.bus, class: m.class, desc: m.desc})
		root++
	}
	return out
}

func printTree(w io.Writer, devs []pciDev, domain bool) {
	var b strings.Builder
	for i, d := range devs {
		if i > 0 {
			b.WriteString("\n")
		}
		if domain {
			b.WriteString("0000:")
		}
		fmt.Fprintf(&b, "%02x:%02x.0 %s: %s\n", d.bus, d.dev, d.class, d.desc)
		if d.sec > 0 {
			fmt.Fprintf(&b, "\tBus: primary=%02x, secondary=%02x, subordinate=%02x, sec-latency=0\n", d.bus, d.sec, d.sub)
		}
		if d.acs != "" {
			fmt.Fprintf(&b, "\tCapabilities: [2a0 v1] Access Control Services\n\t\tACSCap:\tSrcValid+ TransBlk+ ReqRedir+ CmpltRedir+ UpstreamFwd+ EgressCtrl- DirectTrans+\n\t\tACSCtl:\t%s\n", d.acs)
		}
		if d.sec > 0 {
			b.WriteString("\tKernel driver in use: pcieport\n")
		}
	}
	io.WriteString(w, b.String())
}
