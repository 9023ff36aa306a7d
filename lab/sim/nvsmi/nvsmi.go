// Package nvsmi simulates the parts of nvidia-smi that prova reads:
// "nvidia-smi topo -m" (the PCIe/NVLink matrix of GPUs and NICs, in the
// newer driver format with NIC0.. columns and a NIC Legend, cells separated
// by TABs as the real tool prints them) and "nvidia-smi -L". It is installed
// only on nodes with GPUs; other nvidia-smi modes are not simulated.
package nvsmi

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/provadev/prova/lab/model"
	"github.com/provadev/prova/lab/sim"
)

// Tool is the nvidia-smi simulator.
func Tool() sim.Tool {
	return sim.Tool{Name: "nvidia-smi", Installed: func(n *model.Node) bool { return len(n.GPUs) > 0 }, Run: run, InProcess: true}
}

func run(_ context.Context, e *sim.Env) int {
	n, err := e.Model()
	if err != nil {
		return e.Fail(err)
	}
	args := strings.Join(e.Args, " ")
	switch args {
	case "topo -m", "topo --matrix":
		topo(e.Stdout, n)
		return 0
	case "-L", "--list-gpus":
		for i, g := range n.GPUs {
			fmt.Fprintf(e.Stdout, "GPU %d: %s (UUID: GPU-%08x-%04x-%04x-%04x-%012x)\n", i, g.Model, n.Index, i, 0x4e56, 0x1d1a, uint64(n.Index)<<16|uint64(i))
		}
		return 0
	}
	fmt.Fprintf(e.Stderr, "nvidia-smi: prova lab simulates only 'topo -m' and '-L' (got %q)\n", args)
	return 2
}

const legend = `
Legend:

  X    = Self
  SYS  = Connection traversing PCIe as well as the SMP interconnect between NUMA nodes (e.g., QPI/UPI)
  NODE = Connection traversing PCIe as well as the interconnect between PCIe Host Bridges within a NUMA node
  PHB  = Connection traversing PCIe as well as a PCIe Host Bridge (typically the CPU)
  PXB  = Connection traversing multiple PCIe bridges (without traversing the PCIe Host Bridge)
  PIX  = Connection traversing at most a single PCIe bridge
  NV#  = Connection traversing a bonded set of # NVLinks
`

func topo(w io.Writer, n *model.Node) {
	var b strings.Builder
	for i := range n.GPUs {
		fmt.Fprintf(&b, "\tGPU%d", i)
	}
	for i := range n.HCAs {
		fmt.Fprintf(&b, "\tNIC%d", i)
	}
	b.WriteString("\tCPU Affinity\tNUMA Affinity\tGPU NUMA ID\n")
	for i := range n.GPUs {
		g := &n.GPUs[i]
		fmt.Fprintf(&b, "GPU%d", i)
		for j := range n.GPUs {
			if i == j {
				b.WriteString("\t X ")
				continue
			}
			fmt.Fprintf(&b, "\t%s", n.Relation(g, n.GPUs[j].Name))
		}
		for _, h := range n.HCAs {
			fmt.Fprintf(&b, "\t%s", n.Relation(g, h.Name))
		}
		fmt.Fprintf(&b, "\t%s\t%d\t\tN/A\n", n.CPUAffinity(g.NUMA), g.NUMA)
	}
	for i := range n.HCAs {
		h := &n.HCAs[i]
		fmt.Fprintf(&b, "NIC%d", i)
		for j := range n.GPUs {
			g := &n.GPUs[j]
			fmt.Fprintf(&b, "\t%s", n.Relation(g, h.Name))
		}
		for j := range n.HCAs {
			if i == j && j == len(n.HCAs)-1 {
				b.WriteString("\t X") // the real tool ends the row here
				continue
			}
			if i == j {
				b.WriteString("\t X ")
				continue
			}
			fmt.Fprintf(&b, "\t%s", model.NICRelation(h, &n.HCAs[j]))
		}
		b.WriteString("\n")
	}
	b.WriteString(legend)
	if len(n.HCAs) > 0 {
		b.WriteString("\nNIC Legend:\n\n")
		for i, h := range n.HCAs {
			fmt.Fprintf(&b, "  NIC%d: %s\n", i, h.Name)
		}
	}
	io.WriteString(w, b.String())
}
