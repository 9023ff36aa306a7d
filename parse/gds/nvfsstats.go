package gds

import (
	"strconv"
	"strings"

	"github.com/provadev/prova/internal/lazyre"
	"github.com/provadev/prova/parse"
	"github.com/provadev/prova/parse/text"
)

// NvfsStats is /proc/driver/nvidia-fs/stats, the nvidia-fs kernel module's
// counters (NVIDIA/gds-nvidia-fs src/nvfs-stat.c; sample
// gds/nvidia-fs-stats-1.14-io-stats-disabled.txt).
type NvfsStats struct {
	GDSVersion    string `json:"gds_version,omitempty"`
	StatsVersion  string `json:"stats_version"`            // "4.0"
	DriverVersion string `json:"driver_version,omitempty"` // "2.25.7"
	PeerDirect    *bool  `json:"peerdirect,omitempty"`
	// IOStats is "IO stats: Enabled": only then do the Reads and Writes
	// lines count operations and MiB (module parameter rw_stats_enabled).
	IOStats     bool   `json:"io_stats"`
	PeerIOStats bool   `json:"peer_io_stats"`
	Logging     string `json:"logging,omitempty"`
	// ShadowBufferMiB is "Active Shadow-Buffer (MiB)" (older "(MB)").
	ShadowBufferMiB int64 `json:"active_shadow_buffer_mib"`
	ActiveProcess   int64 `json:"active_process"`
	// Counters holds the "Name : k=v k=v" lines by name (Reads, Writes,
	// Sparse Reads, Mmap, Bar1-map, Error, Ops, Batches); a name printed
	// twice (Reads, Writes with IO stats on) merges into one map.
	Counters map[string]map[string]int64 `json:"counters"`
	GPUs     []NvfsGPU                   `json:"gpus"`
}

// NvfsGPU is one "GPU <pci> uuid:<uuid> : Registered_MiB=..." line.
type NvfsGPU struct {
	PCI           string `json:"pci"`
	UUID          string `json:"uuid"`
	RegisteredMiB int64  `json:"registered_mib"`
	CacheMiB      int64  `json:"cache_mib"`
	MaxPinnedMiB  int64  `json:"max_pinned_mib"`
	// CrossRootPortPct is cross_root_port(%), printed with peer IO stats.
	CrossRootPortPct *int64 `json:"cross_root_port_pct,omitempty"`
}

// ReadMiB returns the MiB nvidia-fs has read into GPU memory since it was
// loaded (or its stats reset); ok is false when IO stats are disabled and
// the module does not count them.
func (s *NvfsStats) ReadMiB() (mib, reads int64, ok bool) {
	r := s.Counters["Reads"]
	mib, okM := r["readMiB"]
	n, okN := r["n"]
	return mib, n, s.IOStats && okM && okN
}

var (
	statsVerRe = lazyre.New(`^NVFS statistics\s*\(ver:\s*([0-9.]+)\)$`)
	driverRe   = lazyre.New(`^NVFS Driver\s*\(version:\s*([0-9.]+)\)$`)
	shadowRe   = lazyre.New(`^Active Shadow-Buffer \((?:MiB|MB)\):\s*(\d+)$`)
	ioStatsRe  = lazyre.New(`^IO stats:\s*(Enabled|Disabled),\s*peer IO stats:\s*(Enabled|Disabled)$`)
	gpuLineRe  = lazyre.New(`^GPU\s+(\S+)\s+uuid:(\S+)\s*:\s*(.*)$`)
	kvRe       = lazyre.New(`^([A-Za-z_][A-Za-z0-9_\-()/%]*)=(\d+)$`)
)

// ParseNvfsStats reads cat /proc/driver/nvidia-fs/stats.
func ParseNvfsStats(data []byte) (*NvfsStats, error) {
	const tool = "nvidia-fs stats"
	if err := parse.Complete(tool, data); err != nil {
		return nil, err
	}
	s := &NvfsStats{Counters: map[string]map[string]int64{}, GPUs: []NvfsGPU{}}
	bad := func(i int, raw, why string) error {
		return &parse.Error{Tool: tool, Line: i + 1, Text: raw, Reason: why}
	}
	for i, raw := range text.Lines(data) {
		line := strings.TrimSpace(raw)
		if line == "" {
			continue
		}
		if m := statsVerRe.FindStringSubmatch(line); m != nil {
			if s.StatsVersion != "" {
				return nil, bad(i, raw, "a second NVFS statistics header: the file holds one (two outputs run together?)")
			}
			s.StatsVersion = m[1]
			continue
		}
		if s.StatsVersion == "" && !strings.HasPrefix(line, "GDS Version:") {
			return nil, bad(i, raw, "expected the NVFS statistics header")
		}
		switch {
		case strings.HasPrefix(line, "GDS Version:"):
			if s.GDSVersion != "" {
				return nil, bad(i, raw, "a second GDS Version line: the file holds one (two outputs run together?)")
			}
			s.GDSVersion = strings.TrimSpace(strings.TrimPrefix(line, "GDS Version:"))
		case driverRe.MatchString(line):
			s.DriverVersion = driverRe.FindStringSubmatch(line)[1]
		case strings.HasPrefix(line, "Mellanox PeerDirect Supported:"):
			v := strings.EqualFold(strings.TrimSpace(strings.TrimPrefix(line, "Mellanox PeerDirect Supported:")), "true")
			s.PeerDirect = &v
		case ioStatsRe.MatchString(line):
			m := ioStatsRe.FindStringSubmatch(line)
			s.IOStats, s.PeerIOStats = m[1] == "Enabled", m[2] == "Enabled"
		case strings.HasPrefix(line, "Logging level:"):
			s.Logging = strings.TrimSpace(strings.TrimPrefix(line, "Logging level:"))
		case shadowRe.MatchString(line):
			s.ShadowBufferMiB, _ = strconv.ParseInt(shadowRe.FindStringSubmatch(line)[1], 10, 64)
		case strings.HasPrefix(line, "Active Process:"):
			n, err := strconv.ParseInt(strings.TrimSpace(strings.TrimPrefix(line, "Active Process:")), 10, 64)
			if err != nil {
				return nil, bad(i, raw, "Active Process is not a number")
			}
			s.ActiveProcess = n
		case gpuLineRe.MatchString(line):
			m := gpuLineRe.FindStringSubmatch(line)
			kv, why := pairs(m[3])
			if why != "" {
				return nil, bad(i, raw, why)
			}
			g := NvfsGPU{PCI: m[1], UUID: m[2]}
			for _, o := range s.GPUs {
				if o.PCI == g.PCI {
					return nil, bad(i, raw, "GPU "+g.PCI+" listed a second time (two outputs run together?)")
				}
			}
			for k, v := range kv {
				switch strings.TrimSuffix(strings.TrimSuffix(k, "_MiB"), "_MB") {
				case "Registered":
					g.RegisteredMiB = v
				case "Cache":
					g.CacheMiB = v
				case "max_pinned":
					g.MaxPinnedMiB = v
				case "cross_root_port(%)":
					g.CrossRootPortPct = &v
				}
			}
			s.GPUs = append(s.GPUs, g)
		default:
			name, rest, ok := strings.Cut(line, ":")
			name = strings.TrimSpace(name)
			if !ok || name == "" || strings.ContainsAny(name, "=") {
				return nil, bad(i, raw, "unexpected line")
			}
			kv, why := pairs(rest)
			if why != "" {
				return nil, bad(i, raw, why)
			}
			if s.Counters[name] == nil {
				s.Counters[name] = map[string]int64{}
			}
			for k, v := range kv {
				s.Counters[name][k] = v
			}
		}
	}
	if s.StatsVersion == "" {
		return nil, &parse.Error{Tool: tool, Reason: "no NVFS statistics header: not /proc/driver/nvidia-fs/stats"}
	}
	return s, nil
}

// pairs reads "k=v k=v" with whole-number values.
func pairs(s string) (map[string]int64, string) {
	out := map[string]int64{}
	f := strings.Fields(s)
	if len(f) == 0 {
		return nil, "no counters after the colon"
	}
	for _, p := range f {
		m := kvRe.FindStringSubmatch(p)
		if m == nil {
			return nil, "counter " + strconv.Quote(p) + " is not name=number"
		}
		v, err := strconv.ParseInt(m[2], 10, 64)
		if err != nil {
			return nil, "counter " + strconv.Quote(p) + " out of range"
		}
		out[m[1]] = v
	}
	return out, ""
}
