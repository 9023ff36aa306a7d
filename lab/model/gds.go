package model

import (
	"fmt"
	"net/netip"
	"strings"
)

// GDS is a node's NVIDIA GPUDirect Storage installation: the CUDA toolkit's
// gds/tools with gdscheck. nil on a Node means GDS is not installed.
type GDS struct {
	// Release is the GDS release version gdscheck prints, e.g. "1.16.0.49".
	// Releases before 1.16 print "Supported"/"Unsupported" per file
	// system; 1.16 and later print capability lists (nvfs, dmabuf, compat).
	Release string `json:"release"`
	// NvidiaFSVersion is the version of the nvidia_fs kernel module that
	// ships with the release ("2.27"); shown only when the module is loaded.
	NvidiaFSVersion string `json:"nvidia_fs_version"`
	// LibcufileVersion is the cuFile library version ("2.12").
	LibcufileVersion string `json:"libcufile_version"`
	// IOStats is nvidia-fs's rw_stats_enabled: only with it do the Reads
	// and Writes lines of /proc/driver/nvidia-fs/stats count operations and
	// MiB. The module's default is off.
	IOStats bool `json:"io_stats,omitempty"`
}

// GDSReleases are the releases a scenario may name by major.minor, with the
// nvidia_fs module each ships (as the published gdscheck outputs show).
var GDSReleases = map[string]GDS{
	"1.14": {Release: "1.14.0.30", NvidiaFSVersion: "2.24", LibcufileVersion: "2.12"},
	"1.15": {Release: "1.15.0.42", NvidiaFSVersion: "2.26", LibcufileVersion: "2.12"},
	"1.16": {Release: "1.16.0.49", NvidiaFSVersion: "2.27", LibcufileVersion: "2.12"},
}

// DefaultGDSVersion is the release of a scenario that does not choose one.
const DefaultGDSVersion = "1.16"

// CapabilityLists reports whether the release prints 1.16+ capability lists
// rather than Supported/Unsupported.
func (g *GDS) CapabilityLists() bool {
	var major, minor int
	if _, err := fmt.Sscanf(g.Release, "%d.%d", &major, &minor); err != nil {
		return true
	}
	return major > 1 || minor >= 16
}

// GDSFileSystems maps the file system names a scenario uses (Node.FileSystems)
// to the DRIVER CONFIGURATION entry gdscheck prints for them and whether
// GPUDirect Storage supports them. CephFS has no entry: gdscheck does not
// list it and cuFile falls back to POSIX I/O there.
var GDSFileSystems = map[string]struct {
	Driver    string
	Supported bool
}{
	"gpfs":   {"IBM Spectrum Scale", true},
	"weka":   {"WekaFS", true},
	"vast":   {"NFS", true}, // VAST is mounted over NFS/RDMA
	"nfs":    {"NFS", true},
	"lustre": {"DDN EXAScaler", true},
	"beegfs": {"BeeGFS", true},
	"ceph":   {"", false},
}

// HasFileSystem reports whether the node mounts file system fs.
func (n *Node) HasFileSystem(fs string) bool {
	for _, f := range n.FileSystems {
		if strings.EqualFold(f, fs) {
			return true
		}
	}
	return false
}

// Ceph is the messenger configuration of a node's /etc/ceph/ceph.conf.
type Ceph struct {
	// FSID and MonHost are written to [global].
	FSID    string `json:"fsid"`
	MonHost string `json:"mon_host"`
	// MsType, MsClusterType and MsPublicType are written when not "".
	MsType        string `json:"ms_type,omitempty"`
	MsClusterType string `json:"ms_cluster_type,omitempty"`
	MsPublicType  string `json:"ms_public_type,omitempty"`
	// Section is where the ms_* settings go: "global" (default) or a daemon
	// section such as "osd".
	Section string `json:"section,omitempty"`
}

// MsTypes are the messenger types a scenario may set.
var MsTypes = []string{"async+posix", "async+rdma", "async+dpdk", "simple"}

// Conf is the ceph.conf text: [global] with fsid and mon_host, and the
// ms_* settings in their section.
func (c *Ceph) Conf() string {
	var ms strings.Builder
	for _, kv := range [][2]string{{"ms_type", c.MsType}, {"ms_cluster_type", c.MsClusterType}, {"ms_public_type", c.MsPublicType}} {
		if kv[1] != "" {
			fmt.Fprintf(&ms, "\t%s = %s\n", kv[0], kv[1])
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "[global]\n\tfsid = %s\n\tmon_host = %s\n", c.FSID, c.MonHost)
	if c.Section == "" || c.Section == "global" {
		b.WriteString(ms.String())
		return b.String()
	}
	if ms.Len() > 0 {
		fmt.Fprintf(&b, "\n[%s]\n%s", c.Section, ms.String())
	}
	return b.String()
}

// PortAddress is the IPv4 address of the netdev of port p of the node's
// HCA number hca (0-based, scenario order): the data address for the first
// HCA, the same host part one second octet up for each further HCA (10.10.0.1,
// 10.11.0.1, ...), the second port of an HCA two up. Text only, never
// contacted; "" when the node has no data address or the port no netdev.
func (n *Node) PortAddress(hca int, p Port) string {
	if p.Netdev == "" || n.DataAddress == "" {
		return ""
	}
	a, err := netip.ParseAddr(n.DataAddress)
	if err != nil || !a.Is4() {
		return ""
	}
	b := a.As4()
	b[1] += byte(hca + (p.Num-1)*len(n.HCAs))
	return netip.AddrFrom4(b).String()
}

// RDMAAddresses are the addresses of the node's Active RDMA ports, in
// scenario order: what a configured cufile.json lists in rdma_dev_addr_list.
func (n *Node) RDMAAddresses() []string {
	var out []string
	for i, h := range n.HCAs {
		for _, p := range h.Ports {
			if a := n.PortAddress(i, p); a != "" && p.State == "Active" {
				out = append(out, a)
			}
		}
	}
	return out
}

// GPUBus is the PCI bus number of GPU i: four above the first HCA on the
// same PCIe switch (so the switch's bus range holds both), else above the
// previous GPU; always increasing with i, as nvidia-smi numbers GPUs in
// PCI bus order.
func (n *Node) GPUBus(i int) int {
	prev := 0x0b
	onSwitch := map[string]int{} // GPUs placed on each switch so far
	for j := 0; j <= i && j < len(n.GPUs); j++ {
		bus := 0
		if sw := n.GPUs[j].PCIeSwitch; sw != "" {
			for _, h := range n.HCAs {
				if h.PCIeSwitch == sw {
					if b, ok := pciBus(h.PCI); ok {
						bus = b + 4 + onSwitch[sw]
					}
					break
				}
			}
			onSwitch[sw]++
		}
		if bus <= prev {
			bus = prev + 0x0f
		}
		prev = bus
	}
	return prev
}

// GPUPCI is GPU i's PCI address (text only).
func (n *Node) GPUPCI(i int) string { return fmt.Sprintf("0000:%02x:00.0", n.GPUBus(i)) }

// pciBus is the bus number of a "0000:17:00.0" address.
func pciBus(addr string) (int, bool) {
	f := strings.Split(addr, ":")
	if len(f) != 3 {
		return 0, false
	}
	var b int
	if _, err := fmt.Sscanf(f[1], "%x", &b); err != nil {
		return 0, false
	}
	return b, true
}

// PCIBus is exported for the simulators: the bus of an HCA's address.
func PCIBus(addr string) (int, bool) { return pciBus(addr) }
