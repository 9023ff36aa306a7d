package gds

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/provadev/prova/lab/model"
	"github.com/provadev/prova/lab/sim"
	"github.com/provadev/prova/lab/sim/gpfs"
)

// GdsioPath is where the CUDA toolkit installs gdsio.
const GdsioPath = "/usr/local/cuda/gds/tools/gdsio"

// Gdsio simulates gdsio's read of one file into GPU memory
// (`gdsio -f FILE -d GPU -w THREADS -s SIZE -i IOSIZE -x 0 -I 0`) and
// prints the one result line of samples/gds/gdsio-*.txt. The read goes
// GPU-direct, and nvidia-fs's counters rise, only when the node's data
// path is GPU-direct: nvidia_fs loaded, a GPU, cufile.json listing the RDMA
// addresses without force_compat_mode, and, on GPFS, a daemon serving GDS
// (gpfs.GDSReads). Otherwise cuFile falls back to compatibility mode: the
// line is the same (gdsio reports the transfer type it asked for), the
// counters stay flat and the throughput is that of the bounce path. Other
// gdsio modes (writes, -D directories, -x 1/2, batch) are not simulated.
func Gdsio() sim.Tool {
	return sim.Tool{Name: "gdsio", Installed: func(n *model.Node) bool { return n.GDS != nil && len(n.GPUs) > 0 },
		Paths: []string{GdsioPath}, Run: runGdsio}
}

type gdsioArgs struct {
	file         string
	gpu, threads int
	size, ioSize int64
	xfer, ioType string
}

func runGdsio(_ context.Context, e *sim.Env) int {
	n, err := e.Model()
	if err != nil {
		return e.Fail(err)
	}
	a, msg := parseGdsio(e.Args)
	if msg == "" && (a.xfer != "0" || a.ioType != "0") {
		msg = "prova lab simulates only reads into GPU memory (-x 0 -I 0)"
	}
	if msg == "" && (a.gpu < 0 || a.gpu >= len(n.GPUs)) {
		msg = fmt.Sprintf("invalid gpu index %d", a.gpu)
	}
	if msg != "" {
		fmt.Fprintf(e.Stderr, "gdsio: %s\n", msg)
		return 1
	}
	fs := fileSystem(n, a.file)
	if fs == "" {
		fmt.Fprintf(e.Stderr, "gdsio: file %s is not on a mounted file system of %s (prova lab: GPFS mounts under /gpfs/)\n", a.file, n.Name)
		return 1
	}
	direct, _, unlisted, err := dataPath(e, n, fs)
	if err != nil {
		return e.Fail(err)
	}
	if len(unlisted) > 0 {
		// IBM: GDS I/O through an RDMA port verbsPorts does not list fails
		// with an I/O error (the error text is the lab's).
		fmt.Fprintf(e.Stderr, "Error: IO failed stopping traffic, fd :3 ret:-5 errno:5 (RDMA port %s not in GPFS verbsPorts)\n", strings.Join(unlisted, ", "))
		return 1
	}
	ops := a.size / a.ioSize
	gibs := portGiBs(n) * 0.85
	if !direct {
		gibs *= 0.4 // the bounce buffer: storage to host memory, then a copy
	}
	secs := float64(a.size) / (gibs * (1 << 30))
	lat := secs / float64(ops) * float64(a.threads) * 1e6
	if direct {
		if err := countRead(e, n, a); err != nil {
			return e.Fail(err)
		}
	}
	fmt.Fprintf(e.Stdout, "IoType: READ XferType: GPUD Threads: %d DataSetSize: %d/%d(KiB) IOSize: %d(KiB) Throughput: %.6f GiB/sec, Avg_Latency: %.6f usecs ops: %d total_time %.6f secs\n",
		a.threads, ops*a.ioSize>>10, a.size>>10, a.ioSize>>10, gibs, lat, ops, secs)
	return 0
}

// dataPath decides whether a cuFile read of fs goes GPU-direct on n.
func dataPath(e *sim.Env, n *model.Node, fs string) (direct bool, why string, unlisted []string, err error) {
	switch {
	case !nvfsLoaded(n):
		return false, "nvidia_fs not loaded", nil, nil
	case n.Cufile == "force_compat":
		return false, "force_compat_mode", nil, nil
	}
	if fs != "gpfs" {
		return true, "", nil, nil
	}
	if n.Cufile == "default" || n.Cufile == "absent" {
		return false, "no rdma_dev_addr_list", nil, nil
	}
	return gpfsPath(e, cufilePorts(n))
}

func gpfsPath(e *sim.Env, ports []string) (bool, string, []string, error) {
	ok, why, unlisted, err := gpfs.GDSReads(e, ports)
	if !ok {
		unlisted = nil // compatibility mode: GPFS does not use the ports for GDS
	}
	return ok, why, unlisted, err
}

// cufilePorts are the RDMA ports (device/port) whose addresses the node's
// cufile.json lists.
func cufilePorts(n *model.Node) []string {
	var out []string
	for i, h := range n.HCAs {
		for _, p := range h.Ports {
			if a := n.PortAddress(i, p); a != "" && p.State == "Active" {
				out = append(out, fmt.Sprintf("%s/%d", h.Name, p.Num))
			}
		}
	}
	if n.Cufile == "first_nic" && len(out) > 1 {
		out = out[:1]
	}
	return out
}

// portGiBs is the data rate of the node's Active RDMA ports in GiB/s.
func portGiBs(n *model.Node) float64 {
	gbits := 0
	for _, h := range n.HCAs {
		for _, p := range h.Ports {
			if p.State == "Active" {
				gbits += p.Rate
			}
		}
	}
	if gbits == 0 {
		gbits = 100
	}
	return float64(gbits) / 8 * 1e9 / (1 << 30)
}

// fileSystem is the mounted file system a path is on: "gpfs" under
// /gpfs/ on a node with GPFS, "local" elsewhere on a node with NVMe drives.
func fileSystem(n *model.Node, path string) string {
	switch {
	case strings.HasPrefix(path, "/gpfs/") && n.HasFileSystem("gpfs"):
		return "gpfs"
	case strings.HasPrefix(path, "/") && n.NVMeDrives > 0 && !strings.HasPrefix(path, "/gpfs/"):
		return "local"
	}
	return ""
}

// countRead adds one GPU-direct read to nvidia-fs's counters and rewrites
// the stats file, under the node state lock.
func countRead(e *sim.Env, n *model.Node, a gdsioArgs) error {
	var st nvfsState
	return e.Update(e.NodeState(nvfsStateName), &st, func() (bool, error) {
		ops := a.size / a.ioSize
		st.Reads += ops
		st.ReadBytes += ops * a.ioSize
		st.Mmap += int64(a.threads)
		st.Munmap += int64(a.threads)
		st.Bar1Map += int64(a.threads)
		st.Bar1Free += int64(a.threads)
		if mib := a.ioSize >> 20 * int64(a.threads); mib > st.MaxPinned {
			st.MaxPinned = mib
		}
		seen := false
		for _, g := range st.GPUs {
			seen = seen || g == a.gpu
		}
		if !seen {
			st.GPUs = append(st.GPUs, a.gpu)
		}
		text, ok := NvfsStats(n, st)
		if !ok {
			return false, nil
		}
		path := StatsFile(e.Root())
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return false, err
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			return false, err
		}
		return true, e.MarkChanged(StatsPath)
	})
}

// parseGdsio reads the flags gdsio takes for a file read.
func parseGdsio(args []string) (gdsioArgs, string) {
	a := gdsioArgs{threads: 1, ioSize: 1 << 20, xfer: "0", ioType: "0"}
	size := ""
	for i := 0; i < len(args); i++ {
		if i+1 >= len(args) {
			return a, "option " + args[i] + " needs a value"
		}
		v := args[i+1]
		var err error
		switch args[i] {
		case "-f":
			a.file = v
		case "-d":
			a.gpu, err = strconv.Atoi(v)
		case "-w":
			a.threads, err = strconv.Atoi(v)
		case "-s":
			size = v
		case "-i":
			a.ioSize, err = sizeArg(v)
		case "-x":
			a.xfer = v
		case "-I":
			a.ioType = v
		default:
			return a, "unknown option " + args[i]
		}
		if err != nil {
			return a, fmt.Sprintf("bad value %q for %s", v, args[i])
		}
		i++
	}
	if a.file == "" || size == "" {
		return a, "-f FILE and -s SIZE are required"
	}
	var err error
	if a.size, err = sizeArg(size); err != nil || a.size < a.ioSize || a.threads < 1 || a.ioSize < 4096 {
		return a, fmt.Sprintf("bad size %q / io size / threads", size)
	}
	return a, ""
}

func sizeArg(v string) (int64, error) {
	mult := int64(1)
	switch {
	case strings.HasSuffix(v, "K"), strings.HasSuffix(v, "k"):
		mult = 1 << 10
	case strings.HasSuffix(v, "M"), strings.HasSuffix(v, "m"):
		mult = 1 << 20
	case strings.HasSuffix(v, "G"), strings.HasSuffix(v, "g"):
		mult = 1 << 30
	}
	if mult > 1 {
		v = v[:len(v)-1]
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n <= 0 {
		return 0, fmt.Errorf("bad size")
	}
	return n * mult, nil
}
