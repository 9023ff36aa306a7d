package model

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// Node is one simulated machine.
type Node struct {
	Name        string   `json:"name"`
	Index       int      `json:"index"` // 1-based position in the cluster
	Cluster     string   `json:"cluster"`
	Groups      []string `json:"groups"`
	DataAddress string   `json:"data_address"` // text only, never contacted
	MemoryGiB   int      `json:"memory_gib"`
	CPUs        int      `json:"cpus"`
	NUMANodes   int      `json:"numa_nodes"`
	Kernel      string   `json:"kernel"`
	OFED        string   `json:"ofed"` // e.g. "MLNX_OFED_LINUX-23.10-1.1.9.0"; "" = not installed
	IOMMU       bool     `json:"iommu"`
	NvidiaFS    bool     `json:"nvidia_fs"`
	// Cufile is the node's /etc/cufile.json: "" or "configured" (NVIDIA's
	// default file with rdma_dev_addr_list set to the addresses of the
	// node's Active RDMA ports, PortAddress), "first_nic" (only the first
	// of them),
	// "default" (NVIDIA's default as installed: rdma_dev_addr_list empty),
	// "force_compat" (configured, plus force_compat_mode) or "absent".
	Cufile      string   `json:"cufile,omitempty"`
	FileSystems []string `json:"filesystems"` // e.g. "gpfs", "ceph"
	NVMeDrives  int      `json:"nvme_drives"` // local NVMe namespaces /dev/nvme<i>n1
	HCAs        []HCA    `json:"hcas"`
	GPUs        []GPU    `json:"gpus"`
	// ACSSwitches are the PCIe switches (pcie_switch names) whose
	// downstream ports have ACS redirecting peer-to-peer traffic to the
	// root complex (lspci ACSCtl ReqRedir+ CmpltRedir+).
	ACSSwitches []string `json:"acs_switches,omitempty"`
	Faults      Faults   `json:"faults"`
	// NVMeoF is the scenario's NVMe-oF target as this node sees it (lab/model/nvmeof.go).
	NVMeoF *NVMeoFTarget `json:"nvmeof_target,omitempty"`
	// GDS is the node's GPUDirect Storage installation, nil when not
	// installed; Ceph its ceph.conf messenger settings, nil without Ceph
	// (lab/model/gds.go).
	GDS  *GDS  `json:"gds,omitempty"`
	Ceph *Ceph `json:"ceph,omitempty"`
}

// HCA is one RDMA device (a PCI function, as ibstat lists it).
type HCA struct {
	Name       string `json:"name"`     // mlx5_0
	CAType     string `json:"ca_type"`  // MT4123
	Firmware   string `json:"firmware"` // 20.39.2048
	BoardID    string `json:"board_id"` // MT_0000000223
	Board      string `json:"board"`    // ibdev2netdev -v description
	Serial     string `json:"serial"`   // ibdev2netdev -v PSID/serial
	PCI        string `json:"pci"`      // 0000:17:00.0
	NodeGUID   uint64 `json:"node_guid"`
	NUMA       int    `json:"numa"`
	PCIeSwitch string `json:"pcie_switch"` // devices on the same switch are PIX
	Ports      []Port `json:"ports"`
}

// Port is one HCA port.
type Port struct {
	Num       int    `json:"num"`
	State     string `json:"state"`      // Active, Down, Initializing, Armed
	PhysState string `json:"phys_state"` // LinkUp, Polling, Disabled, Sleep, ...
	Rate      int    `json:"rate"`       // Gb/s
	LinkLayer string `json:"link_layer"` // InfiniBand or Ethernet
	Netdev    string `json:"netdev"`
	NetdevUp  bool   `json:"netdev_up"`
	LID       int    `json:"lid"`
	SMLID     int    `json:"sm_lid"`
	GUID      uint64 `json:"guid"`
}

// GPU is one GPU and its PCIe relation to the node's NICs.
type GPU struct {
	Name       string `json:"name"`  // GPU0
	Model      string `json:"model"` // NVIDIA H100 80GB HBM3
	NUMA       int    `json:"numa"`
	PCIeSwitch string `json:"pcie_switch"`
	NVLinks    int    `json:"nvlinks"` // bonded NVLinks to every other GPU; 0 = PCIe only
	// PCIe overrides the derived relation to a NIC (HCA name) or GPU:
	// PIX, PXB, PHB, NODE or SYS.
	PCIe map[string]string `json:"pcie,omitempty"`
}

// Faults are the failures a scenario injects into one node.
type Faults struct {
	// RDMAConnect, when not "", makes RDMA connection setup from or to this
	// node fail: "firewall" or "lossless" (PFC/ECN incomplete). The GPFS and
	// NVMe simulators read it; an RDMA connection needs both ends healthy.
	RDMAConnect string `json:"rdma_connect,omitempty"`
	// VerbsConnLayout changes what the simulated "mmfsadm test verbs conn"
	// prints, for testing how prova copes with a format it cannot know:
	// "unreadable" (a layout prova's parser does not read), "conns_only"
	// (only the "conns" spelling is accepted; "conn" prints a usage
	// message), "empty" (nothing at all, even with RDMA started).
	VerbsConnLayout string `json:"verbs_conn_layout,omitempty"`
	// PagepoolRegisterLimit, when not "", is the most pagepool memory the
	// node's HCA can register (its memory translation table), e.g. "4G": a
	// daemon starting with a larger pagepool logs IBM's "VERBS RDMA
	// Shutdown because pagepool could not be registered to Infiniband."
	// and talks TCP.
	PagepoolRegisterLimit string `json:"pagepool_register_limit,omitempty"`
	// SSHDown: the node's SSH server does not listen (connection refused).
	SSHDown bool `json:"ssh_down,omitempty"`
	// HandshakeDelay delays the SSH handshake of every connection.
	HandshakeDelay time.Duration `json:"handshake_delay,omitempty"`
	// DropOn is a regular expression: when a command matching it starts,
	// the server closes the TCP connection (after DropAfter, if set).
	DropOn string `json:"drop_on,omitempty"`
	// DropAfter closes the TCP connection this long after a command
	// started (every command when DropOn is empty).
	DropAfter time.Duration `json:"drop_after,omitempty"`
	// HangOn is a regular expression: a matching command never returns
	// until the client gives up.
	HangOn string `json:"hang_on,omitempty"`
	// GPFSNoRestart: the GPFS daemon runs when the lab starts, but once
	// stopped it does not come back (mmstartup succeeds, mmfsd dies while
	// initializing; mmgetstate shows down).
	GPFSNoRestart bool `json:"gpfs_no_restart,omitempty"`
}

// FileName is the model's file name inside a node directory.
const FileName = "model.json"

// Load reads the model saved in a node directory.
func Load(nodeDir string) (*Node, error) {
	b, err := os.ReadFile(filepath.Join(nodeDir, FileName))
	if err != nil {
		return nil, fmt.Errorf("read node model: %w", err)
	}
	var n Node
	if err := json.Unmarshal(b, &n); err != nil {
		return nil, fmt.Errorf("read node model %s: %w", nodeDir, err)
	}
	return &n, nil
}

// Save writes the model into a node directory.
func (n *Node) Save(nodeDir string) error {
	b, err := json.MarshalIndent(n, "", "  ")
	if err != nil {
		return fmt.Errorf("encode node model: %w", err)
	}
	return os.WriteFile(filepath.Join(nodeDir, FileName), append(b, '\n'), 0o644)
}

// HasRDMA reports whether the node has at least one RDMA device.
func (n *Node) HasRDMA() bool { return len(n.HCAs) > 0 }

// HCA returns the named device.
func (n *Node) HCA(name string) (*HCA, bool) {
	for i := range n.HCAs {
		if n.HCAs[i].Name == name {
			return &n.HCAs[i], true
		}
	}
	return nil, false
}

// Port returns port num of the device, if present.
func (h *HCA) Port(num int) (*Port, bool) {
	for i := range h.Ports {
		if h.Ports[i].Num == num {
			return &h.Ports[i], true
		}
	}
	return nil, false
}

// PortUsable reports whether device/port exists and is Active with its
// physical link up: what GPFS needs of a verbsPorts entry.
func (n *Node) PortUsable(dev string, port int) bool {
	h, ok := n.HCA(dev)
	if !ok {
		return false
	}
	p, ok := h.Port(port)
	return ok && p.State == "Active" && p.PhysState == "LinkUp"
}
