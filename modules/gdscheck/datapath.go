package gdscheck

import (
	"fmt"
	"strings"

	"github.com/provadev/prova/parse/gds"
)

// The data paths cuFile can give a node's I/O (docs/gds.md):
const (
	pathNative = "native"  // nvidia_fs: storage DMA straight into GPU memory
	pathP2PDMA = "p2pdma"  // PCIe P2PDMA (use_pci_p2pdma), no nvidia_fs needed
	pathRDMA   = "rdma"    // a distributed file system's RDMA into GPU memory
	pathCompat = "compat"  // compatibility mode: POSIX I/O into host memory, then a copy
	pathUnkown = "unknown" // gdscheck or cufile.json could not tell
)

// cufileFS is the cufile.json fs.<name> section of a file system as the
// runbook names it.
var cufileFS = map[string]string{"gpfs": "gpfs", "weka": "weka", "wekafs": "weka", "lustre": "lustre",
	"exascaler": "lustre", "beegfs": "beegfs", "nfs": "nfs", "vast": "nfs"}

// needsAddrList are the file systems for which NVIDIA's cuFile
// compatibility-mode table says: "For WekaFS or IBM Spectrum Scale mounts:
// if there are no rdma_dev_addr_list specified ... use compatibility mode".
var needsAddrList = map[string]bool{"gpfs": true, "weka": true}

var distributed = map[string]bool{"gpfs": true, "weka": true, "lustre": true, "beegfs": true, "nfs": true}

// dataPath names the path cuFile gives fs's I/O on this node and why, per
// NVIDIA's cuFile compatibility-mode rules: force_compat_mode, nvidia_fs
// not loaded (unless P2PDMA serves local NVMe), no GPU with GDS support
// (no BAR1), the file system not supported, or GPFS/WekaFS without
// rdma_dev_addr_list all mean compatibility mode.
func dataPath(c *gds.Check, cf *gds.Cufile, cfErr string, fs *string, fsSupported *bool, gpusOK int) (string, []string) {
	var why []string
	name := ""
	if fs != nil {
		name = strings.ToLower(*fs)
	}
	sec := cufileFS[name]
	p2pdma := cf != nil && cf.UsePCIP2PDMA != nil && *cf.UsePCIP2PDMA && p2pdmaSupported(c, name)
	if cf != nil && cf.ForceCompatMode != nil && *cf.ForceCompatMode {
		why = append(why, "cufile.json sets force_compat_mode: all I/O goes through host memory")
	}
	if c.NvidiaFSVersion == "" && !p2pdma {
		why = append(why, "nvidia_fs is not loaded: cuFile uses compatibility mode for all I/O")
	}
	if len(c.GPUs) > 0 && gpusOK == 0 {
		why = append(why, "no GPU supports GDS (gdscheck GPU INFO): compatibility mode")
	}
	if fsSupported != nil && !*fsSupported {
		why = append(why, fmt.Sprintf("gdscheck does not report %s as supported: compatibility mode", *fs))
	}
	if needsAddrList[sec] && cf != nil && len(cf.AddrList(sec)) == 0 {
		why = append(why, fmt.Sprintf("cufile.json has no rdma_dev_addr_list for %s: NVIDIA's rule for IBM Spectrum Scale and WekaFS mounts is compatibility mode", *fs))
	}
	if len(why) > 0 {
		return pathCompat, why
	}
	if cf == nil && (needsAddrList[sec] || cfErr != "") {
		return pathUnkown, []string{"cufile.json not read: " + cfErr}
	}
	switch {
	case distributed[sec]:
		return pathRDMA, []string{fmt.Sprintf("%s over RDMA into GPU memory (rdma library %s)", *fs, strings.ToLower(orNone(c.RDMA.Library)))}
	case p2pdma:
		return pathP2PDMA, []string{"use_pci_p2pdma with NVMe P2PDMA supported: PCIe peer-to-peer without nvidia_fs"}
	}
	return pathNative, []string{"nvidia_fs " + c.NvidiaFSVersion + " loaded: storage DMA into GPU memory"}
}

// p2pdmaSupported reports whether gdscheck lists NVMe P2PDMA for local
// NVMe (pre-1.16 "NVMe P2PDMA : Supported", 1.16+ a p2pdma capability).
func p2pdmaSupported(c *gds.Check, fs string) bool {
	if fs != "" && fs != "nvme" && fs != "nvmeof" {
		return false
	}
	for _, d := range c.Drivers {
		if d.Name == "NVMe P2PDMA" && d.Supported {
			return true
		}
		if strings.HasPrefix(d.Name, "NVMe") {
			for _, cap := range d.Capabilities {
				if strings.Contains(strings.ToLower(cap), "p2p") {
					return true
				}
			}
		}
	}
	return false
}

func orNone(s string) string {
	if s == "" {
		return "not reported"
	}
	return s
}

// iommuMode reads the IOMMU state from gdscheck's PLATFORM INFO line and
// the kernel command line: "disabled", "passthrough" (iommu=pt),
// "enabled", or "unknown" when gdscheck printed no IOMMU line (never
// "disabled" by default).
func iommuMode(c *gds.Check, cmdline string) string {
	v := strings.ToLower(strings.TrimSpace(c.IOMMU))
	if v == "" {
		return "unknown"
	}
	if strings.HasPrefix(v, "disabled") {
		return "disabled"
	}
	for _, f := range strings.Fields(cmdline) {
		if f == "iommu=pt" || f == "iommu.passthrough=1" {
			return "passthrough"
		}
	}
	return "enabled"
}
