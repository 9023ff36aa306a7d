package nvme

import (
	"context"
	"fmt"
	"strings"

	"github.com/provadev/prova/lab/sim"
)

// Tool is the nvme-cli simulator; every node has it.
func Tool() sim.Tool { return sim.Tool{Name: "nvme", Run: run} }

func run(_ context.Context, e *sim.Env) int {
	n, err := e.Model()
	if err != nil {
		return e.Fail(err)
	}
	if len(e.Args) == 0 {
		fmt.Fprint(e.Stderr, "nvme-2.3\nusage: nvme <command> [<device>] [<args>]\n")
		return 1
	}
	switch e.Args[0] {
	case "version":
		fmt.Fprint(e.Stdout, "nvme version 2.3 (git 2.3)\nlibnvme version 1.3 (git 1.3)\n")
		return 0
	case "discover":
		return discover(e, n)
	case "connect":
		return connect(e, n)
	case "disconnect":
		return disconnect(e, n)
	case "list", "list-subsys":
		vals, _, err := parseOpts(e.Args[1:], fabricOpts)
		if err != nil {
			fmt.Fprintf(e.Stderr, "%s: %v\n", e.Args[0], err)
			return 1
		}
		format := vals["output-format"]
		if format != "" && format != "normal" && format != "json" {
			fmt.Fprintf(e.Stderr, "Invalid output format: %s\n", format)
			return 1
		}
		s, err := ReadState(e)
		if err != nil {
			return e.Fail(err)
		}
		subs := Subsystems(n, s)
		if e.Args[0] == "list" {
			printList(e.Stdout, subs, format == "json")
		} else {
			printListSubsys(e.Stdout, subs, hostNQN(n), hostID(n), format == "json")
		}
		return 0
	}
	fmt.Fprintf(e.Stderr, "nvme: prova lab simulates only discover, connect, disconnect, list, list-subsys and version (got %q)\n",
		strings.Join(e.Args, " "))
	return 1
}
