package bench

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

type args struct {
	Tool          string   `cty:"tool"`
	Role          string   `cty:"role"`
	Path          *string  `cty:"path"`
	Mode          string   `cty:"mode"`
	BlockSize     *string  `cty:"block_size"`
	Threads       int      `cty:"threads"`
	IODepth       int      `cty:"iodepth"`
	Runtime       *string  `cty:"runtime"`
	Size          *string  `cty:"size"`
	Direct        bool     `cty:"direct"`
	ServerAddress *string  `cty:"server_address"`
	RDMADevice    *string  `cty:"rdma_device"`
	MaxWait       string   `cty:"max_wait"`
	ExtraArgs     []string `cty:"extra_args"`
	CPUCapture    bool     `cty:"cpu_capture"`
	Repeat        int      `cty:"repeat"`
	NUMANode      *int     `cty:"numa_node"`
}

// pinned prefixes argv with numactl when numa_node is set, so the
// benchmark's threads and memory stay on the NIC's NUMA node.
func (a args) pinned(argv []string) []string {
	if a.NUMANode == nil {
		return argv
	}
	n := strconv.Itoa(*a.NUMANode)
	return append([]string{"numactl", "--cpunodebind=" + n, "--membind=" + n}, argv...)
}

// maxRepeat bounds repeat: each run takes the whole runtime.
const maxRepeat = 20

func (a args) check() error {
	if a.Threads < 1 || a.IODepth < 1 {
		return fmt.Errorf("threads and iodepth must be at least 1 (got %d and %d)", a.Threads, a.IODepth)
	}
	if a.NUMANode != nil && (*a.NUMANode < 0 || *a.NUMANode > 1023) {
		return fmt.Errorf("numa_node must be from 0 to 1023 (got %d)", *a.NUMANode)
	}
	if a.Repeat < 1 || a.Repeat > maxRepeat {
		return fmt.Errorf("repeat must be from 1 to %d (got %d)", maxRepeat, a.Repeat)
	}
	if _, err := a.runtime(); err != nil {
		return err
	}
	if _, err := seconds("max_wait", a.MaxWait); err != nil {
		return err
	}
	if a.BlockSize != nil {
		if _, err := bytesOf(*a.BlockSize); err != nil {
			return fmt.Errorf("block_size: %w", err)
		}
	}
	if a.Size != nil {
		if _, err := bytesOf(*a.Size); err != nil {
			return fmt.Errorf("size: %w", err)
		}
	}
	switch {
	case !isPerftest(a.Tool) && (a.Path == nil || *a.Path == ""):
		return fmt.Errorf("%s needs path (a block device such as /dev/nvme1n1, or a file)", a.Tool)
	case isPerftest(a.Tool) && a.Role == "client" && (a.ServerAddress == nil || *a.ServerAddress == ""):
		return fmt.Errorf("%s with role = \"client\" needs server_address (the server host's address)", a.Tool)
	case isPerftest(a.Tool) && a.Role != "client" && a.ServerAddress != nil:
		return fmt.Errorf("server_address is for role = \"client\"")
	}
	return nil
}

// runtime is the benchmark's time limit in whole seconds; elbencho and fio
// default to 30, perftest runs its iterations unless runtime is set (0).
func (a args) runtime() (int, error) {
	if a.Runtime == nil {
		if isPerftest(a.Tool) {
			return 0, nil
		}
		return 30, nil
	}
	return seconds("runtime", *a.Runtime)
}

func (a args) blockSize() string {
	if a.BlockSize != nil {
		return *a.BlockSize
	}
	return "4K"
}

// seconds reads a duration ("30s", "2m") as whole seconds, at least 1.
func seconds(name, s string) (int, error) {
	d, err := time.ParseDuration(s)
	if err != nil {
		return 0, fmt.Errorf("%s = %q: not a duration such as \"30s\" or \"5m\"", name, s)
	}
	if d < time.Second {
		return 0, fmt.Errorf("%s = %q: must be at least 1s", name, s)
	}
	return int(math.Ceil(d.Seconds())), nil
}

// bytesOf reads "4K", "1M", "4KiB", "512" (binary units, as elbencho and
// fio take them).
func bytesOf(s string) (int64, error) {
	t := strings.TrimSpace(s)
	t = strings.TrimSuffix(strings.TrimSuffix(strings.ToUpper(t), "IB"), "B")
	mult := int64(1)
	if n := len(t); n > 0 {
		switch t[n-1] {
		case 'K':
			mult = 1 << 10
		case 'M':
			mult = 1 << 20
		case 'G':
			mult = 1 << 30
		case 'T':
			mult = 1 << 40
		}
		if mult > 1 {
			t = t[:n-1]
		}
	}
	n, err := strconv.ParseInt(t, 10, 64)
	if err != nil || n < 1 || n > math.MaxInt64/mult {
		return 0, fmt.Errorf("%q is not a size such as 4K, 1M or 4096", s)
	}
	return n * mult, nil
}

// reads reports whether the mode only reads.
func (a args) reads() bool { return a.Mode == "read" || a.Mode == "randread" }

func (a args) random() bool { return strings.HasPrefix(a.Mode, "rand") }

// describe is one line for plans and messages.
func (a args) describe() string {
	if isPerftest(a.Tool) {
		switch a.Role {
		case "server":
			return a.Tool + " server in the background"
		case "collect":
			return a.Tool + " server's output"
		}
		return fmt.Sprintf("%s client against %s", a.Tool, deref(a.ServerAddress))
	}
	rt, _ := a.runtime()
	s := fmt.Sprintf("%s %s %s, %d threads x iodepth %d for %ds on %s", a.Tool, a.Mode, a.blockSize(), a.Threads, a.IODepth, rt, deref(a.Path))
	if a.Repeat > 1 {
		s += fmt.Sprintf(", %d times", a.Repeat)
	}
	if a.NUMANode != nil {
		s += fmt.Sprintf(", pinned to NUMA node %d", *a.NUMANode)
	}
	return s
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
