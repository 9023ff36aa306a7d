package rdma

import (
	"context"
	"fmt"

	"github.com/provadev/prova/lab/model"
	"github.com/provadev/prova/lab/sim"
)

const noDevices = "Failed to get IB devices list: Function not implemented"

// IbvDevinfo simulates rdma-core's ibv_devinfo ("-d DEV", "-i PORT").
// With no HCA it prints the driver-less error and exits 255.
func IbvDevinfo() sim.Tool { return sim.Tool{Name: "ibv_devinfo", Run: runIbvDevinfo, InProcess: true} }

// IbvDevices simulates ibv_devices; with no HCA it exits 1.
func IbvDevices() sim.Tool { return sim.Tool{Name: "ibv_devices", Run: runIbvDevices, InProcess: true} }

func runIbvDevinfo(_ context.Context, e *sim.Env) int {
	n, err := e.Model()
	if err != nil {
		return e.Fail(err)
	}
	if !n.HasRDMA() {
		fmt.Fprintln(e.Stderr, noDevices)
		return 255
	}
	dev, port := "", 0
	for i := 0; i < len(e.Args); i++ {
		a := e.Args[i]
		switch {
		case (a == "-d" || a == "--ib-dev") && i+1 < len(e.Args):
			i++
			dev = e.Args[i]
		case (a == "-i" || a == "--ib-port") && i+1 < len(e.Args):
			i++
			fmt.Sscanf(e.Args[i], "%d", &port)
		case a == "-v" || a == "--verbose" || a == "-l" || a == "--list":
		case len(a) > 0 && a[0] != '-' && dev == "":
			dev = a
		}
	}
	hcas := n.HCAs
	if dev != "" {
		h, ok := n.HCA(dev)
		if !ok {
			fmt.Fprintf(e.Stderr, "IB device '%s' wasn't found\n", dev)
			return 255
		}
		hcas = []model.HCA{*h}
	}
	w := e.Stdout
	for i, h := range hcas {
		if i > 0 {
			fmt.Fprintln(w)
		}
		fmt.Fprintf(w, "hca_id:\t%s\n", h.Name)
		fmt.Fprintf(w, "\ttransport:\t\t\tInfiniBand (0)\n")
		fmt.Fprintf(w, "\tfw_ver:\t\t\t\t%s\n", h.Firmware)
		fmt.Fprintf(w, "\tnode_guid:\t\t\t%s\n", model.GUIDColon(h.NodeGUID))
		fmt.Fprintf(w, "\tsys_image_guid:\t\t\t%s\n", model.GUIDColon(h.NodeGUID))
		fmt.Fprintf(w, "\tvendor_id:\t\t\t0x02c9\n")
		fmt.Fprintf(w, "\tvendor_part_id:\t\t\t%d\n", model.VendorPartID(h.CAType))
		fmt.Fprintf(w, "\thw_ver:\t\t\t\t0x0\n")
		fmt.Fprintf(w, "\tboard_id:\t\t\t%s\n", h.BoardID)
		fmt.Fprintf(w, "\tphys_port_cnt:\t\t\t%d\n", len(h.Ports))
		first := true
		for _, p := range h.Ports {
			if port != 0 && p.Num != port {
				continue
			}
			if !first {
				fmt.Fprintln(w)
			}
			first = false
			devinfoPort(e, p)
		}
	}
	return 0
}

var portStates = [...]string{"PORT_NOP (0)", "PORT_DOWN (1)", "PORT_INIT (2)", "PORT_ARMED (3)", "PORT_ACTIVE (4)"}

func devinfoPort(e *sim.Env, p model.Port) {
	w := e.Stdout
	mtu := "4096 (5)"
	if p.LinkLayer == "Ethernet" {
		mtu = "1024 (3)"
	}
	fmt.Fprintf(w, "\t\tport:\t%d\n", p.Num)
	fmt.Fprintf(w, "\t\t\tstate:\t\t\t%s\n", portStates[model.StateCode(p.State)])
	fmt.Fprintf(w, "\t\t\tmax_mtu:\t\t4096 (5)\n")
	fmt.Fprintf(w, "\t\t\tactive_mtu:\t\t%s\n", mtu)
	fmt.Fprintf(w, "\t\t\tsm_lid:\t\t\t%d\n", p.SMLID)
	fmt.Fprintf(w, "\t\t\tport_lid:\t\t%d\n", p.LID)
	fmt.Fprintf(w, "\t\t\tport_lmc:\t\t0x00\n")
	fmt.Fprintf(w, "\t\t\tlink_layer:\t\t%s\n", p.LinkLayer)
}

func runIbvDevices(_ context.Context, e *sim.Env) int {
	n, err := e.Model()
	if err != nil {
		return e.Fail(err)
	}
	if !n.HasRDMA() {
		fmt.Fprintln(e.Stderr, noDevices)
		return 1
	}
	fmt.Fprintf(e.Stdout, "    %-16s\t   node GUID\n", "device")
	fmt.Fprintf(e.Stdout, "    %-16s\t----------------\n", "------")
	for _, h := range n.HCAs {
		fmt.Fprintf(e.Stdout, "    %-16s\t%016x\n", h.Name, h.NodeGUID)
	}
	return 0
}
