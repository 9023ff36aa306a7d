package model

import (
	"fmt"
	"strconv"
	"strings"
)

// PortStates are the logical port states a scenario may set.
var PortStates = []string{"Active", "Down", "Initializing", "Armed"}

// PhysStates are the physical port states a scenario may set.
var PhysStates = []string{"Sleep", "Polling", "Disabled", "PortConfigurationTraining", "LinkUp", "LinkErrorRecovery", "PhyTest"}

// LinkLayers are the link layers a port may have.
var LinkLayers = []string{"InfiniBand", "Ethernet"}

// Relations are the PCIe relations nvidia-smi topo -m prints.
var Relations = []string{"PIX", "PXB", "PHB", "NODE", "SYS"}

// rates maps a port rate in Gb/s to the width and speed ibstatus prints.
var rates = map[int]string{
	10: "4X", 14: "1X FDR", 20: "4X DDR", 25: "1X EDR", 40: "4X FDR10",
	50: "2X HDR", 56: "4X FDR", 100: "4X EDR", 200: "4X HDR", 400: "4X NDR", 800: "4X XDR",
}

// ValidRate reports whether ibstatus knows how to name the rate.
func ValidRate(r int) bool { _, ok := rates[r]; return ok }

// RateText is the rate as ibstatus prints it: "200 Gb/sec (4X HDR)".
func RateText(r int) string { return fmt.Sprintf("%d Gb/sec (%s)", r, rates[r]) }

// StateCode is the numeric logical state (1 DOWN, 2 INIT, 3 ARMED, 4 ACTIVE).
func StateCode(s string) int {
	switch s {
	case "Initializing":
		return 2
	case "Armed":
		return 3
	case "Active":
		return 4
	}
	return 1
}

// StateUpper is the state as ibstatus and rdma print it.
func StateUpper(s string) string {
	return [...]string{"DOWN", "DOWN", "INIT", "ARMED", "ACTIVE"}[StateCode(s)]
}

// PhysCode is the numeric physical state.
func PhysCode(s string) int {
	for i, p := range PhysStates {
		if p == s {
			return i + 1
		}
	}
	return 3
}

// PhysRdma is the physical state as the rdma tool prints it.
func PhysRdma(s string) string {
	switch s {
	case "LinkUp":
		return "LINK_UP"
	case "PortConfigurationTraining":
		return "PORT_CONFIGURATION_TRAINING"
	case "LinkErrorRecovery":
		return "LINK_ERROR_RECOVERY"
	case "PhyTest":
		return "PHY_TEST"
	}
	return strings.ToUpper(s)
}

// DefaultPhys is the physical state a port in state s shows when the
// scenario does not say: LinkUp when Active, else Polling for InfiniBand
// (no cable or no subnet manager) and Disabled for Ethernet.
func DefaultPhys(state, linkLayer string) string {
	switch {
	case state != "Down":
		return "LinkUp"
	case linkLayer == "Ethernet":
		return "Disabled"
	}
	return "Polling"
}

// GUIDHex is a GUID as ibstat prints it: 0x0002c90300b382a0.
func GUIDHex(g uint64) string { return fmt.Sprintf("0x%016x", g) }

// GUIDColon is a GUID as ibv_devinfo prints it: b859:9f03:00ca:e2f8.
func GUIDColon(g uint64) string {
	s := fmt.Sprintf("%016x", g)
	return s[0:4] + ":" + s[4:8] + ":" + s[8:12] + ":" + s[12:16]
}

// GID is the port's default GID as ibstatus prints it.
func GID(g uint64) string { return "fe80:0000:0000:0000:" + GUIDColon(g) }

// VendorPartID is the numeric part of a CA type like MT4123.
func VendorPartID(caType string) int {
	n, _ := strconv.Atoi(strings.TrimPrefix(caType, "MT"))
	return n
}

// Relation is the PCIe relation between a GPU and a NIC or GPU named other,
// as nvidia-smi topo -m prints it: an explicit override in the GPU wins,
// then the same PCIe switch (PIX), then the same NUMA node (NODE), else SYS.
func (n *Node) Relation(g *GPU, other string) string {
	if r, ok := g.PCIe[other]; ok {
		return r
	}
	numa, sw := -1, ""
	if h, ok := n.HCA(other); ok {
		numa, sw = h.NUMA, h.PCIeSwitch
	} else if o, ok := n.GPU(other); ok {
		if g.NVLinks > 0 && o.NVLinks > 0 {
			return fmt.Sprintf("NV%d", min(g.NVLinks, o.NVLinks))
		}
		if r, ok := o.PCIe[g.Name]; ok {
			return r
		}
		numa, sw = o.NUMA, o.PCIeSwitch
	}
	return relate(g.NUMA, g.PCIeSwitch, numa, sw)
}

// NICRelation is the PCIe relation between two NICs.
func NICRelation(a, b *HCA) string {
	return relate(a.NUMA, a.PCIeSwitch, b.NUMA, b.PCIeSwitch)
}

func relate(numaA int, swA string, numaB int, swB string) string {
	switch {
	case swA != "" && swA == swB:
		return "PIX"
	case numaA == numaB:
		return "NODE"
	}
	return "SYS"
}

// GPU returns the named GPU.
func (n *Node) GPU(name string) (*GPU, bool) {
	for i := range n.GPUs {
		if n.GPUs[i].Name == name {
			return &n.GPUs[i], true
		}
	}
	return nil, false
}

// CPUAffinity is the CPU list of a NUMA node: CPUs are split evenly across
// NUMA nodes in order ("0-15" for node 0 of 32 CPUs on 2 nodes).
func (n *Node) CPUAffinity(numa int) string {
	nn := max(n.NUMANodes, 1)
	per := max(n.CPUs/nn, 1)
	lo := numa * per
	hi := lo + per - 1
	if numa == nn-1 {
		hi = n.CPUs - 1
	}
	return fmt.Sprintf("%d-%d", lo, hi)
}
