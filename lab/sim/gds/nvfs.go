package gds

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/provadev/prova/lab/model"
)

// StatsPath is where the nvidia-fs module publishes its counters.
const StatsPath = "/proc/driver/nvidia-fs/stats"

// nvfsState is what nvidia-fs has counted on a node since the lab
// started: it rises only when a read went GPU-direct through nvidia-fs.
type nvfsState struct {
	Reads     int64 `json:"reads"`
	ReadBytes int64 `json:"read_bytes"`
	Mmap      int64 `json:"mmap"`
	Munmap    int64 `json:"munmap"`
	Bar1Map   int64 `json:"bar1_map"`
	Bar1Free  int64 `json:"bar1_free"`
	// GPUs are the indexes of GPUs that had a buffer registered, in
	// order: nvidia-fs prints a GPU line only for those.
	GPUs      []int `json:"gpus,omitempty"`
	MaxPinned int64 `json:"max_pinned_mib,omitempty"`
}

// nvfsStateName is the node state file of the counters.
const nvfsStateName = "nvidia-fs"

// StatsFile is the node-root path of the stats file.
func StatsFile(root string) string { return filepath.Join(root, filepath.FromSlash(StatsPath)) }

// NvfsStats is /proc/driver/nvidia-fs/stats of node n with counters st,
// in the layout of NVIDIA/gds-nvidia-fs src/nvfs-stat.c (TABs between a
// name and its colon; with IO stats off the Reads and Writes lines carry
// only error counters, as samples/gds/nvidia-fs-stats-1.14-io-stats-disabled.txt).
// ok is false where nvidia-fs is not loaded (no such file).
func NvfsStats(n *model.Node, st nvfsState) (text string, ok bool) {
	if n.GDS == nil || !nvfsLoaded(n) {
		return "", false
	}
	var b strings.Builder
	p := func(format string, a ...any) { fmt.Fprintf(&b, format, a...) }
	onOff := map[bool]string{true: "Enabled", false: "Disabled"}
	p("GDS Version: %s \n", n.GDS.Release)
	p("NVFS statistics(ver: 4.0)\n")
	p("NVFS Driver(version: %s.0)\n", n.GDS.NvidiaFSVersion)
	p("Mellanox PeerDirect Supported: %s\n", map[bool]string{true: "True", false: "False"}[n.OFED != ""])
	p("IO stats: %s, peer IO stats: %s\n", onOff[n.GDS.IOStats], onOff[false])
	p("Logging level: info\n\n")
	p("Active Shadow-Buffer (MiB): 0\n")
	p("Active Process: 0\n")
	if n.GDS.IOStats {
		p("Batches\t\t\t\t: n=0 ok=0 err=0 Avg-Submit-Latency(usec)=0\n")
		p("Reads\t\t\t\t: n=%d ok=%d err=0 readMiB=%d io_state_err=0\n", st.Reads, st.Reads, st.ReadBytes>>20)
		p("Reads\t\t\t\t: Bandwidth(MiB/s)=0 Avg-Latency(usec)=0\n")
	} else {
		p("Reads\t\t\t\t: err=0 io_state_err=0\n")
	}
	p("Sparse Reads\t\t        : n=0 io=0 holes=0 pages=0 \n")
	if n.GDS.IOStats {
		p("Writes\t\t\t\t: n=0 ok=0 err=0 writeMiB=0 io_state_err=0 pg-cache=0 pg-cache-fail=0 pg-cache-eio=0\n")
		p("Writes\t\t\t\t: Bandwidth(MiB/s)=0 Avg-Latency(usec)=0\n")
	} else {
		p("Writes\t\t\t\t: err=0 io_state_err=0 pg-cache=0 pg-cache-fail=0 pg-cache-eio=0\n")
	}
	p("Mmap\t\t\t\t: n=%d ok=%d err=0 munmap=%d\n", st.Mmap, st.Mmap, st.Munmap)
	p("Bar1-map\t\t\t: n=%d ok=%d err=0 free=%d callbacks=0 active=%d delay-frees=0\n", st.Bar1Map, st.Bar1Map, st.Bar1Free, st.Bar1Map-st.Bar1Free)
	p("Error\t\t\t\t: cpu-gpu-pages=0 sg-ext=0 dma-map=0 dma-ref=0\n")
	p("Ops\t\t\t\t: Read=0 Write=0 BatchIO=0\n")
	for _, i := range st.GPUs {
		p("GPU %s uuid:%08x-%04x-%04x-%04x-%012x : Registered_MiB=0 Cache_MiB=0 max_pinned_MiB=%d \n",
			n.GPUPCI(i), n.Index, i, 0x4e56, 0x1d1a, uint64(n.Index)<<16|uint64(i), st.MaxPinned)
	}
	return b.String(), true
}

// InitialNvfsStats is the stats file of a node whose nvidia-fs has
// counted nothing yet.
func InitialNvfsStats(n *model.Node) (string, bool) { return NvfsStats(n, nvfsState{}) }
