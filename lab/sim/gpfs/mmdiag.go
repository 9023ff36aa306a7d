package gpfs

import (
	"fmt"
	"strings"

	"github.com/provadev/prova/lab/sim"
)

// Mmdiag simulates mmdiag --config [-Y] (the running daemon's effective
// values, samples/gpfs/mmdiag-config-Y-changed-column.txt) and mmdiag
// --network (samples/gpfs/mmdiag-network-*.txt). Both need the daemon.
func Mmdiag() sim.Tool { return command("mmdiag", runMmdiag) }

const diagUsage = "Usage: mmdiag [--config [-Y]] [--network] [--version]\n"

func runMmdiag(s *session) (int, bool) {
	mode, y := "", false
	for _, a := range s.e.Args {
		switch a {
		case "--config", "--network", "--version":
			if mode != "" {
				s.err("%s", diagUsage)
				return 1, false
			}
			mode = a
		case "-Y":
			y = true
		default:
			s.err("mmdiag: Incorrect option: %s\n%s", a, diagUsage)
			return 1, false
		}
	}
	if mode == "" || y && mode == "--network" {
		s.err("%s", diagUsage)
		return 1, false
	}
	n := s.self()
	if n == nil || !n.Started {
		return s.daemonDown(), false
	}
	switch mode {
	case "--config":
		s.diagConfig(n, y)
	case "--network":
		s.diagNetwork(n)
	default:
		s.out("\n=== mmdiag: version ===\nCurrent GPFS build: \"%s \".\nBuilt on Oct 25 2023 at 12:21:35\nRunning %s\n",
			version, uptime(s.now.Sub(n.StartedAt)))
	}
	return 0, false
}

func uptime(d interface{ Seconds() float64 }) string {
	sec := int(d.Seconds())
	if sec < 60 {
		return fmt.Sprintf("%d secs", max(sec, 0))
	}
	return fmt.Sprintf("%d minutes %d secs", sec/60, sec%60)
}

func (s *session) diagConfig(n *Node, y bool) {
	if y {
		s.out("mmdiag:config:HEADER:version:reserved:reserved:name:value:changed:\n")
	} else {
		s.out("\n=== mmdiag: config ===\n")
	}
	for _, name := range attrNames() {
		a := attrs[name]
		v := a.diagValue(n.Eff[name])
		how := n.How[name]
		if y {
			s.out("mmdiag:config:0:1:::%s:%s:%s:\n", name, yEncode(v), how)
			continue
		}
		mark := " "
		if how != "" {
			mark = "!"
		}
		s.out("%s %s %s\n", mark, name, v)
	}
}

const tcpRow = "    %-36s%-8s%4s %-16s%-11s%-5s%-6s%-10s%-11s%s\n"

func (s *session) diagNetwork(n *Node) {
	m := s.models[n.Name]
	iface := "eth0"
	if m != nil && len(m.HCAs) > 0 && len(m.HCAs[0].Ports) > 0 && m.HCAs[0].Ports[0].Netdev != "" {
		iface = m.HCAs[0].Ports[0].Netdev
	}
	subnet := n.Address
	if f := strings.Split(n.Address, "."); len(f) == 4 {
		subnet = f[0] + "." + f[1] + ".0.0"
	}
	s.out("\n=== mmdiag: network ===\n\nPending messages:\n  (none)\nInter-node communication configuration:\n")
	s.out("  tscTcpPort      %s\n", n.Eff["tscTcpPort"])
	s.out("  my address      %s/16 (%s) <c0n%d>\n", n.Address, iface, n.Number-1)
	s.out("  my addr list    %s/16 (%s)\n", n.Address, iface)
	s.out("  my subnet list  %s/16\n", subnet)
	s.out("  my node number  %d\n", n.Number)
	s.out("TCP Connections between nodes:\n")
	s.out(tcpRow, "hostname", "node", "idx", "destination", "status", "err", "sock", "sent(MB)", "recvd(MB)", "ostype")
	for i, p := range s.c.Nodes {
		if p.Name == n.Name || !p.Started {
			continue
		}
		s.out(tcpRow, p.Name, fmt.Sprintf("<c0n%d>", p.Number-1), "0", p.Address, "connected", "0", fmt.Sprint(20+i), "0", "0", "Linux/L")
	}
	if !n.Verbs {
		return
	}
	s.out("RDMA Connections between nodes:\n")
	for _, vp := range n.Ports {
		lid, speed := 0, "HDR"
		if m != nil {
			if h, ok := m.HCA(vp.Dev); ok {
				if p, ok := h.Port(vp.Port); ok {
					lid, speed = p.LID, speedName(p.Rate, p.LinkLayer)
				}
			}
		}
		s.out("  Fabric %d - Device %s Port %d Width 4x Speed %s lid %d\n", vp.Fabnum, vp.Dev, vp.Port, speed, lid)
		s.out("    %-36s%-5s%-4s%-7s%s\n", "hostname", "idx", "CM", "state", "VS buff")
		for _, cn := range n.Conns {
			if cn.Dev == vp.Dev && cn.Port == vp.Port {
				s.out("    %-36s%-5d%-4s%-7s%s\n", cn.Peer, cn.Index, "N", "RTS", "(Y)903")
			}
		}
	}
}

func speedName(rate int, linkLayer string) string {
	if linkLayer == "Ethernet" {
		return fmt.Sprintf("%dGbE", rate)
	}
	switch {
	case rate >= 400:
		return "NDR"
	case rate >= 200:
		return "HDR"
	case rate >= 100:
		return "EDR"
	case rate >= 56:
		return "FDR"
	}
	return "QDR"
}
