package gpfs

import (
	"fmt"
	"strings"

	"github.com/provadev/prova/lab/sim"
)

// Mmlscluster simulates mmlscluster: the cluster information block and
// the node table (samples/gpfs/mmlscluster-ccr-7-nodes.txt).
func Mmlscluster() sim.Tool { return command("mmlscluster", runMmlscluster) }

func runMmlscluster(s *session) (int, bool) {
	if len(s.e.Args) > 0 {
		s.err("mmlscluster: Incorrect option: %s\n", s.e.Args[0])
		s.err("Usage: mmlscluster [--ces] [--cnfs] [--cloud-gateway] [-Y]\n")
		return 1, false
	}
	c := s.c
	s.out("GPFS cluster information\n========================\n")
	for _, kv := range [][2]string{
		{"GPFS cluster name:", c.Name}, {"GPFS cluster id:", fmt.Sprint(c.ID)}, {"GPFS UID domain:", c.Name},
		{"Remote shell command:", "/usr/bin/ssh"}, {"Remote file copy command:", "/usr/bin/scp"}, {"Repository type:", "CCR"},
	} {
		s.out("  %-27s%s\n", kv[0], kv[1])
	}
	nameW, ipW, adminW := len("Daemon node name"), 15, len("Admin node name")
	for _, n := range c.Nodes {
		nameW, ipW, adminW = max(nameW, len(n.Name)), max(ipW, len(n.Address)), max(adminW, len(n.Name))
	}
	header := fmt.Sprintf(" Node  %-*s%-*s%-*sDesignation", nameW+2, "Daemon node name", ipW+2, "IP address", adminW+2, "Admin node name")
	s.out("\n%s\n%s\n", header, strings.Repeat("-", len(header)+1))
	for _, n := range c.Nodes {
		s.out("%4d   %-*s%-*s%-*s%s\n", n.Number, nameW+2, n.Name, ipW+2, n.Address, adminW+2, n.Name, designation(&n))
	}
	s.out("\n")
	return 0, false
}

func designation(n *Node) string {
	switch {
	case n.Quorum && n.Manager:
		return "quorum-manager"
	case n.Quorum:
		return "quorum"
	case n.Manager:
		return "manager"
	}
	return ""
}
