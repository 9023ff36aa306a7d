package rdma

import (
	"context"
	"fmt"
	"strings"

	"github.com/provadev/prova/lab/sim"
)

// OfedInfo simulates MLNX_OFED's ofed_info: "-s" prints
// "MLNX_OFED_LINUX-<ver>:", "-n" the bare version, no option a short
// component listing. It is installed only where OFED is.
func OfedInfo() sim.Tool {
	return sim.Tool{Name: "ofed_info", Installed: hasOFED, Run: runOfedInfo, InProcess: true}
}

func runOfedInfo(_ context.Context, e *sim.Env) int {
	n, err := e.Model()
	if err != nil {
		return e.Fail(err)
	}
	full := n.OFED
	ver := full[strings.IndexByte(full, '-')+1:]
	mode := ""
	if len(e.Args) > 0 {
		mode = e.Args[0]
	}
	switch mode {
	case "-s":
		fmt.Fprintf(e.Stdout, "%s:\n", full)
	case "-n":
		fmt.Fprintln(e.Stdout, ver)
	case "":
		base := ver
		if i := strings.LastIndexByte(ver, '.'); i > 0 {
			base = ver[:i]
		}
		fmt.Fprintf(e.Stdout, "%s (OFED-%s):\n\n", full, base)
		for _, c := range []string{"mlnx-ofa_kernel", "rdma-core", "ofed-scripts", "perftest", "mstflint"} {
			fmt.Fprintf(e.Stdout, "%s:\nmlnx_ofed_%s/%s-%s.src.rpm\n\n", c, c, c, base)
		}
	default:
		fmt.Fprintf(e.Stderr, "Usage: %s [-s|-n|-l|-p]\n", "ofed_info")
		return 1
	}
	return 0
}
