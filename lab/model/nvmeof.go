package model

// Default NVMe-oF target values (see docs/lab-nvmeof.md).
const (
	DefaultTargetNQN     = "nqn.2024-01.dev.prova:lab-target1"
	DefaultTargetAddress = "10.10.0.100"
	DefaultTargetPort    = 4420
	DiscoveryNQN         = "nqn.2014-08.org.nvmexpress.discovery"
)

// NVMeoFTarget is the scenario's NVMe-oF target: one subsystem reachable
// at Address:Port over the offered transports. The address is text only;
// nothing ever connects to it.
type NVMeoFTarget struct {
	NQN        string   `json:"nqn"`
	Address    string   `json:"address"`
	Port       int      `json:"port"`
	Transports []string `json:"transports"` // "rdma", "tcp"
	// NamespacesGB are the namespace sizes in GB (10^9 bytes), NSID 1, 2, ...
	NamespacesGB []int  `json:"namespaces_gb"`
	Model        string `json:"model"`    // "Linux" for a kernel nvmet target
	Firmware     string `json:"firmware"` // the target kernel's release, 8 characters at most
	// Rate caps the target's link in Gb/s; 0 means the target never limits.
	Rate int `json:"rate,omitempty"`
	// IOPS is the namespace's device ceiling for small random reads (the
	// SSD behind it); 0 means DefaultTargetIOPS.
	IOPS int `json:"iops,omitempty"`
}

// DefaultTargetIOPS is the small-block ceiling of a namespace backed by
// one data-centre NVMe SSD (PCIe Gen4 drives are specified near 1M 4K
// random-read IOPS).
const DefaultTargetIOPS = 1_000_000

// DeviceIOPS is the namespace's small-block IOPS ceiling.
func (t *NVMeoFTarget) DeviceIOPS() int {
	if t == nil || t.IOPS <= 0 {
		return DefaultTargetIOPS
	}
	return t.IOPS
}

// DefaultNVMeoFTarget is the target of a scenario that does not describe one.
func DefaultNVMeoFTarget() *NVMeoFTarget {
	return &NVMeoFTarget{NQN: DefaultTargetNQN, Address: DefaultTargetAddress, Port: DefaultTargetPort,
		Transports: []string{"rdma", "tcp"}, NamespacesGB: []int{3840}, Model: "Linux", Firmware: "5.14.0-3"}
}

// Offers reports whether the target listens on transport tr.
func (t *NVMeoFTarget) Offers(tr string) bool {
	for _, x := range t.Transports {
		if x == tr {
			return true
		}
	}
	return false
}
