package gpfs

import (
	"fmt"
	"strings"

	"github.com/provadev/prova/lab/sim"
)

// Mmgetstate simulates mmgetstate [-a | -N nodes] [-L] [-v] [-Y]
// (samples/gpfs/mmgetstate-*.txt, mmstartup-a-and-mmgetstate-aL-active.txt).
// A started daemon is arbitrating for the cluster's settle time, then
// active while a majority of the quorum nodes run a daemon.
func Mmgetstate() sim.Tool { return command("mmgetstate", runMmgetstate) }

const getstateUsage = "Usage: mmgetstate [-L] [-s] [-v] [-Y] [-a | -N {Node[,Node...] | NodeFile | NodeClass}]\n"

func runMmgetstate(s *session) (int, bool) {
	long, y, all := false, false, false
	spec := ""
	args := s.e.Args
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "-N" && i+1 < len(args) {
			i++
			spec = args[i]
			continue
		}
		if !strings.HasPrefix(a, "-") || len(a) < 2 {
			s.err("mmgetstate: Incorrect extra argument: %s\n%s", a, getstateUsage)
			return 1, false
		}
		for _, f := range a[1:] {
			switch f {
			case 'a':
				all = true
			case 'L':
				long = true
			case 'v':
			case 'Y':
				y = true
			default:
				s.err("mmgetstate: Incorrect option: -%c\n%s", f, getstateUsage)
				return 1, false
			}
		}
	}
	c := s.c
	nodes := []*Node{s.self()}
	switch {
	case all && spec != "":
		s.err("mmgetstate: The -a and -N options are mutually exclusive.\n%s", getstateUsage)
		return 1, false
	case all:
		nodes = c.all()
	case spec != "":
		sel, err := c.selectNodes(spec)
		if err != nil || len(sel) == 0 {
			s.err("mmgetstate: Incorrect node %s specified for command.\n", spec)
			return s.failed("mmgetstate"), false
		}
		nodes = sel
	}
	if nodes[0] == nil {
		s.err("mmgetstate: This node does not belong to a GPFS cluster.\n")
		return 1, false
	}
	up := 0
	for i := range c.Nodes {
		if c.State(&c.Nodes[i], s.now) == "active" {
			up++
		}
	}
	if y {
		s.out("mmgetstate::HEADER:version:reserved:reserved:nodeName:nodeNumber:state:quorum:nodesUp:totalNodes:remarks:cnfsState:\n")
		for _, n := range nodes {
			st := c.State(n, s.now)
			q, u := c.quorumNeeded(), up
			if st == "down" {
				q, u = 0, 0
			}
			s.out("mmgetstate::0:1:::%s:%d:%s:%d:%d:%d:%s:(undefined):\n", n.Name, n.Number, st, q, u, len(c.Nodes), remark(n))
		}
		return 0, false
	}
	nameW, stateW := len("Node name"), len("GPFS state")
	for _, n := range nodes {
		nameW, stateW = max(nameW, len(n.Name)), max(stateW, len(c.State(n, s.now)))
	}
	var header string
	var rows []string
	if long {
		header = fmt.Sprintf(" Node number  %-*sQuorum  Nodes up  Total nodes  %-*sRemarks", nameW+2, "Node name", stateW+2, "GPFS state")
		for _, n := range nodes {
			st := c.State(n, s.now)
			q, u, t := "", "", ""
			switch st {
			case "active":
				q, u, t = fmt.Sprint(c.quorumNeeded()), fmt.Sprint(up), fmt.Sprint(len(c.Nodes))
			case "down":
				q, u, t = "0", "0", fmt.Sprint(len(c.Nodes))
			}
			rows = append(rows, fmt.Sprintf("%12d  %-*s%s%s%s%-*s%s", n.Number, nameW+2, n.Name,
				center(q, 8), center(u, 10), center(t, 13), stateW+2, st, remark(n)))
		}
	} else {
		header = fmt.Sprintf(" Node number  %-*s%-*s", nameW+2, "Node name", stateW+2, "GPFS state")
		for _, n := range nodes {
			rows = append(rows, fmt.Sprintf("%12d  %-*s%s", n.Number, nameW+2, n.Name, c.State(n, s.now)))
		}
	}
	width := len(header)
	for _, r := range rows {
		width = max(width, len(strings.TrimRight(r, " ")))
	}
	s.out("\n%s\n%s\n", header, strings.Repeat("-", width))
	for _, r := range rows {
		s.out("%s\n", strings.TrimRight(r, " "))
	}
	return 0, false
}

// center places v in a cell of width w (the header plus its two spaces) as
// mmgetstate -L does.
func center(v string, w int) string {
	head := w - 2
	left := (head - len(v) + 1) / 2
	if v == "" || left < 0 {
		left = 0
	}
	return fmt.Sprintf("%-*s", w, strings.Repeat(" ", left)+v)
}

func remark(n *Node) string {
	if n.Quorum {
		return "quorum node"
	}
	return ""
}
