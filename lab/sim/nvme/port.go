package nvme

import "github.com/provadev/prova/lab/model"

// ManagementRate is the line rate (Gb/s) of the NIC TCP falls back to when
// the node has no data port with its netdev up.
const ManagementRate = 25

// DataPort is the port NVMe-oF traffic of transport tr uses on node n: the
// first Active port with its physical link up (RDMA) or with its netdev up
// too (TCP), in model order. TCP without such a port uses a management
// NIC ("eno1", ManagementRate Gb/s Ethernet); RDMA without one reports
// false.
func DataPort(n *model.Node, tr string) (hca string, p model.Port, ok bool) {
	for _, h := range n.HCAs {
		for _, port := range h.Ports {
			if port.State != "Active" || port.PhysState != "LinkUp" {
				continue
			}
			if tr == "tcp" && !port.NetdevUp {
				continue
			}
			return h.Name, port, true
		}
	}
	if tr == "tcp" {
		return "", model.Port{Num: 1, State: "Active", PhysState: "LinkUp", Rate: ManagementRate, LinkLayer: "Ethernet",
			Netdev: "eno1", NetdevUp: true}, true
	}
	return "", model.Port{}, false
}

// LineRate is the Gb/s a fabric device of transport tr can move on node
// n: its data port's rate, capped by the target's rate when set. Local
// (pcie) devices report 0.
func LineRate(n *model.Node, tr string) int {
	if tr == "pcie" {
		return 0
	}
	_, p, ok := DataPort(n, tr)
	if !ok {
		return 0
	}
	r := p.Rate
	if t := n.NVMeoF; t != nil && t.Rate > 0 && t.Rate < r {
		r = t.Rate
	}
	return r
}
