package bench

import (
	"math"
	"time"
)

// Result is one benchmark measurement (one fio job direction, one elbencho
// phase, one perftest run) in common units.
type Result struct {
	Tool    string        `json:"tool"`           // "fio", "elbencho", "ib_write_lat", ...
	Name    string        `json:"name,omitempty"` // job or phase name, e.g. "randread4k", "READ"
	Op      string        `json:"op,omitempty"`   // "read", "write", "trim", "mixed", "mkdirs", ...
	IOPS    float64       `json:"iops"`
	MiBps   float64       `json:"mib_s"` // MiB (2^20 bytes) per second
	Gbps    float64       `json:"gbps"`  // gigabits (10^9 bit) per second
	LatUs   Latency       `json:"lat_us"`
	Runtime time.Duration `json:"runtime_ns"`
}

// bitsPerMiB is the number of bits in one MiB.
const bitsPerMiB = 8 * 1024 * 1024

// MiBpsToGbps converts MiB/s to Gbit/s (decimal giga).
func MiBpsToGbps(mibps float64) float64 { return finite(mibps * bitsPerMiB / 1e9) }

// GbpsToMiBps converts Gbit/s (decimal giga) to MiB/s.
func GbpsToMiBps(gbps float64) float64 { return finite(gbps * 1e9 / bitsPerMiB) }

// SetMiBps sets MiBps and the matching Gbps.
func (r *Result) SetMiBps(mibps float64) {
	r.MiBps = finite(mibps)
	r.Gbps = MiBpsToGbps(r.MiBps)
}

// SetGbps sets Gbps and the matching MiBps.
func (r *Result) SetGbps(gbps float64) {
	r.Gbps = finite(gbps)
	r.MiBps = GbpsToMiBps(r.Gbps)
}

// finite maps NaN and ±Inf to 0 so that results always marshal to JSON.
func finite(v float64) float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return 0
	}
	return v
}
