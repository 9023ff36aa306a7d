package gds

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/provadev/prova/lab/model"
	"github.com/provadev/prova/lab/sim"
)

// Path is where the CUDA toolkit installs gdscheck.
const Path = "/usr/local/cuda/gds/tools/gdscheck"

// Tool is the gdscheck simulator, installed on nodes with GDS.
func Tool() sim.Tool {
	return sim.Tool{Name: "gdscheck", Installed: func(n *model.Node) bool { return n.GDS != nil },
		Paths: []string{Path}, Run: run}
}

func run(_ context.Context, e *sim.Env) int {
	n, err := e.Model()
	if err != nil {
		return e.Fail(err)
	}
	if n.GDS == nil {
		return e.Fail(fmt.Errorf("node %s has no GDS in its model", n.Name))
	}
	switch strings.Join(e.Args, " ") {
	case "-p":
		io.WriteString(e.Stdout, Report(n))
		return 0
	case "-v":
		io.WriteString(e.Stdout, versions(n))
		return 0
	}
	fmt.Fprintf(e.Stderr, "gdscheck: prova lab simulates only -p and -v (got %q)\n", strings.Join(e.Args, " "))
	return 1
}

// Report is what gdscheck -p prints on node n, which must have GDS.
func Report(n *model.Node) string {
	var b strings.Builder
	line := func(format string, a ...any) { fmt.Fprintf(&b, " "+format+"\n", a...) }
	banner := func(title string) {
		bar := strings.Repeat("=", len(title))
		line("%s", bar)
		line("%s", title)
		line("%s", bar)
	}
	if len(n.GPUs) == 0 {
		line("No GPU found in the system, use this library only for sysmem")
	}
	b.WriteString(versions(n))
	line("Platform: x86_64")
	banner("ENVIRONMENT:")
	banner("DRIVER CONFIGURATION:")
	drivers(n, line)
	banner("CUFILE CONFIGURATION:")
	props := cufileOld
	if n.GDS.CapabilityLists() {
		props = cufileNew
	}
	for _, p := range props {
		if p[0] == "properties.force_compat_mode" && forceCompat(n) {
			p[1] = "true"
		}
		if strings.HasSuffix(p[0], ":") {
			line("%s %s", p[0], p[1])
		} else {
			line("%s : %s", p[0], p[1])
		}
	}
	if len(n.GPUs) > 0 {
		banner("GPU INFO:")
		state := "Disabled"
		if n.IOMMU {
			state = "Pass-through or Enabled"
		}
		for i, g := range n.GPUs {
			line("GPU index %d %s bar:1 bar size (MiB):%d supports GDS, IOMMU State: %s", i, g.Model, barSizeMiB(g.Model), state)
		}
	}
	banner("PLATFORM INFO:")
	if n.IOMMU {
		line("IOMMU: Pass-through or enabled")
		line("WARN: GDS is not guaranteed to work functionally or in a performant way with iommu=on/pt")
	} else {
		line("IOMMU: disabled")
	}
	if len(n.GPUs) > 0 {
		line("Nvidia Driver Info Status: Supported(Nvidia Open Driver Installed)")
		line("Cuda Driver Version Installed:  %s", cudaDriver[series(n.GDS)])
	}
	line("Platform: PowerEdge XE9680, Arch: x86_64(Linux %s)", n.Kernel)
	line("Platform verification succeeded")
	return b.String()
}

// versions is the release line and the nvidia_fs/libcufile line. Without a
// loaded nvidia_fs the line names only the library (or, from 1.16, only the
// minimum nvidia_fs version).
func versions(n *model.Node) string {
	g := n.GDS
	s := fmt.Sprintf(" GDS release version: %s\n", g.Release)
	switch {
	case g.CapabilityLists() && nvfsLoaded(n):
		s += fmt.Sprintf(" nvidia_fs version:  %s nvidia_fs minimum version: 2.12\n", g.NvidiaFSVersion)
	case g.CapabilityLists():
		s += " nvidia_fs minimum version: 2.12\n"
	case nvfsLoaded(n):
		s += fmt.Sprintf(" nvidia_fs version:  %s libcufile version: %s\n", g.NvidiaFSVersion, g.LibcufileVersion)
	default:
		s += fmt.Sprintf(" libcufile version: %s\n", g.LibcufileVersion)
	}
	return s
}

// nvfsLoaded: the nvidia_fs module needs the NVIDIA driver, so a GPU.
func nvfsLoaded(n *model.Node) bool { return n.NvidiaFS && len(n.GPUs) > 0 }

// series is "1.16" for release 1.16.0.49.
func series(g *model.GDS) string {
	parts := strings.SplitN(g.Release, ".", 3)
	if len(parts) < 2 {
		return g.Release
	}
	return parts[0] + "." + parts[1]
}

// drivers prints DRIVER CONFIGURATION: one entry per file system or
// transport, then the RDMA lines.
func drivers(n *model.Node, line func(string, ...any)) {
	newVocab := n.GDS.CapabilityLists()
	gdsPath := nvfsLoaded(n) // GPUDirect proper, not the compat fallback
	served := map[string]bool{"NVMe": n.NVMeDrives > 0}
	for _, fs := range n.FileSystems {
		if d, ok := model.GDSFileSystems[strings.ToLower(fs)]; ok && d.Supported {
			served[d.Driver] = true
		}
	}
	up, down := rdmaPorts(n)
	rdma := gdsPath && up > 0 && distributedFS(served)
	list := driversOld
	if newVocab {
		list = driversNew
	}
	for _, name := range list {
		v := "Unsupported"
		switch {
		case name == "Userspace RDMA":
			if rdma {
				v = "Supported"
			}
		case newVocab && served[name] && gdsPath:
			v = newCapability[name]
		case newVocab:
			v = "compat"
		case served[name] && gdsPath:
			v = "Supported"
		}
		line("%-18s : %s", name, v)
	}
	opt := func(name, value string) { line("--%-19s : %s", name, value) }
	peer := "Disabled"
	if !newVocab && n.OFED != "" && len(n.GPUs) > 0 {
		peer = "Enabled"
	}
	opt("Mellanox PeerDirect", peer)
	if newVocab {
		dmabuf := "Disabled"
		if len(n.GPUs) > 0 {
			dmabuf = "Enabled"
		}
		opt("DmaBuf support", dmabuf)
	}
	if rdma {
		opt("rdma library", "Loaded (libcufile_rdma.so)")
		opt("rdma devices", "Configured")
		opt("rdma_device_status", fmt.Sprintf("Up: %d Down: %d", up, down))
	} else {
		opt("rdma library", "Not Loaded (libcufile_rdma.so)")
		opt("rdma devices", "Not configured")
		opt("rdma_device_status", "Up: 0 Down: 0")
	}
}

// distributedFS reports whether a served file system reaches storage over
// the network (cuFile then loads its RDMA library).
func distributedFS(served map[string]bool) bool {
	for name, ok := range served {
		if ok && name != "NVMe" {
			return true
		}
	}
	return false
}

// rdmaPorts counts the node's RDMA ports that are Active with the link up,
// and the others.
func rdmaPorts(n *model.Node) (up, down int) {
	for _, h := range n.HCAs {
		for _, p := range h.Ports {
			if p.State == "Active" && p.PhysState == "LinkUp" {
				up++
			} else {
				down++
			}
		}
	}
	return up, down
}

func contains(s, sub string) bool { return strings.Contains(s, sub) }
