package gpfs

import (
	"fmt"
	"strings"

	"github.com/provadev/prova/lab/sim"
)

// Mmfsadm simulates the two mmfsadm service commands prova uses:
// "test verbs status" (samples/gpfs/mmfsadm-test-verbs-status-*.txt) and
// "test verbs conn", whose format is defined in docs/gpfs-verbs-conn.md.
func Mmfsadm() sim.Tool { return command("mmfsadm", runMmfsadm) }

// connRow is the row layout of docs/gpfs-verbs-conn.md.
const connRow = "  %-17s%-18s%-13s%-8s%-6s%-5s%-5s%s\n"

func runMmfsadm(s *session) (int, bool) {
	sub := strings.Join(s.e.Args, " ")
	layout := s.connLayout()
	conn := "test verbs conn"
	if layout == "conns_only" {
		conn = "test verbs conns"
	}
	if sub != "test verbs status" && sub != conn {
		s.err("mmfsadm: unsupported command: %s\n", sub)
		s.err("Usage: mmfsadm test verbs {status|%s}\n", strings.TrimPrefix(conn, "test verbs "))
		return 1, false
	}
	n := s.self()
	if n == nil || !n.Started {
		return s.daemonDown(), false
	}
	status := "disabled"
	if n.Verbs {
		status = "started"
	}
	if sub == "test verbs status" || !n.Verbs {
		s.out("VERBS RDMA status: %s\n", status)
		return 0, false
	}
	switch layout {
	case "empty":
		return 0, false
	case "unreadable":
		s.unreadableConns(n)
		return 0, false
	}
	s.out("RDMA Connections between nodes:\n")
	s.out(connRow, "destination", "hostname", "state", "device", "port", "qps", "idx", "cookie")
	for _, cn := range n.Conns {
		p := s.c.node(cn.Peer)
		s.out(connRow, p.Address, p.Name, "connected", cn.Dev, fmt.Sprint(cn.Port), "2", fmt.Sprint(cn.Index), fmt.Sprint(cn.Cookie))
	}
	return 0, false
}
