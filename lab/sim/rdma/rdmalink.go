package rdma

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/provadev/prova/lab/model"
	"github.com/provadev/prova/lab/sim"
)

// RdmaTool simulates iproute2's rdma: "rdma [-j] [-p] link [show [DEV[/PORT]]]"
// and "rdma dev". With no HCA it prints "Failed to open NETLINK_RDMA socket"
// and exits 1, even with -j.
func RdmaTool() sim.Tool { return sim.Tool{Name: "rdma", Run: runRdma, InProcess: true} }

type rdmaLink struct {
	Ifindex       int    `json:"ifindex"`
	Ifname        string `json:"ifname"`
	Port          int    `json:"port"`
	SubnetPrefix  string `json:"subnet_prefix,omitempty"`
	LID           *int   `json:"lid,omitempty"`
	SMLID         *int   `json:"sm_lid,omitempty"`
	LMC           *int   `json:"lmc,omitempty"`
	State         string `json:"state"`
	PhysicalState string `json:"physical_state"`
	Netdev        string `json:"netdev,omitempty"`
}

func runRdma(_ context.Context, e *sim.Env) int {
	n, err := e.Model()
	if err != nil {
		return e.Fail(err)
	}
	jsonOut, pretty := false, false
	var rest []string
	for _, a := range e.Args {
		switch a {
		case "-j", "-json", "--json":
			jsonOut = true
		case "-p", "-pretty", "--pretty":
			pretty = true
		default:
			rest = append(rest, a)
		}
	}
	if !n.HasRDMA() {
		fmt.Fprintln(e.Stderr, "Failed to open NETLINK_RDMA socket")
		return 1
	}
	obj := "link"
	if len(rest) > 0 {
		obj = rest[0]
		rest = rest[1:]
	}
	if len(rest) > 0 && (rest[0] == "show" || rest[0] == "list") {
		rest = rest[1:]
	}
	filter := ""
	if len(rest) > 0 {
		filter = rest[0]
	}
	switch {
	case strings.HasPrefix("link", obj):
		return rdmaLinks(e, n, filter, jsonOut, pretty)
	case strings.HasPrefix("dev", obj):
		for i, h := range n.HCAs {
			fmt.Fprintf(e.Stdout, "%d: %s: node_type ca fw %s node_guid %s sys_image_guid %s\n",
				i, h.Name, h.Firmware, model.GUIDColon(h.NodeGUID), model.GUIDColon(h.NodeGUID))
		}
		return 0
	}
	fmt.Fprintf(e.Stderr, "Unknown object \"%s\"\n", obj)
	return 1
}

func rdmaLinks(e *sim.Env, n *model.Node, filter string, jsonOut, pretty bool) int {
	dev, port, _ := strings.Cut(filter, "/")
	var links []rdmaLink
	found := false
	for i, h := range n.HCAs {
		if dev != "" && h.Name != dev {
			continue
		}
		found = true
		for _, p := range h.Ports {
			if port != "" && fmt.Sprint(p.Num) != port {
				continue
			}
			l := rdmaLink{Ifindex: i, Ifname: h.Name, Port: p.Num, State: model.StateUpper(p.State),
				PhysicalState: model.PhysRdma(p.PhysState), Netdev: p.Netdev}
			if p.LinkLayer == "InfiniBand" {
				lid, sm, lmc := p.LID, p.SMLID, 0
				l.SubnetPrefix, l.LID, l.SMLID, l.LMC = "fe80:0000:0000:0000", &lid, &sm, &lmc
			}
			links = append(links, l)
		}
	}
	if !found {
		fmt.Fprintf(e.Stderr, "Wrong device name\n")
		return 1
	}
	if jsonOut {
		var b []byte
		if pretty {
			b, _ = json.MarshalIndent(links, "", "    ")
		} else {
			b, _ = json.Marshal(links)
		}
		fmt.Fprintf(e.Stdout, "%s\n", b)
		return 0
	}
	for _, l := range links {
		fmt.Fprintf(e.Stdout, "link %s/%d ", l.Ifname, l.Port)
		if l.LID != nil {
			fmt.Fprintf(e.Stdout, "subnet_prefix %s lid %d sm_lid %d lmc %d ", l.SubnetPrefix, *l.LID, *l.SMLID, *l.LMC)
		}
		fmt.Fprintf(e.Stdout, "state %s physical_state %s", l.State, l.PhysicalState)
		if l.Netdev != "" {
			fmt.Fprintf(e.Stdout, " netdev %s", l.Netdev)
		}
		fmt.Fprintln(e.Stdout)
	}
	return 0
}
