package fio

import (
	"math"
	"time"

	"github.com/provadev/prova/parse/bench"
)

// Result is one fio run.
type Result struct {
	Version string `json:"version"` // "fio-3.33"
	Format  string `json:"format"`  // "json", "json+", "normal", "normal,json"
	Jobs    []Job  `json:"jobs"`
}

// Job is one job (or group, with --group_reporting).
type Job struct {
	Name      string  `json:"name"`
	GroupID   int     `json:"groupid"`
	Error     int     `json:"error"`
	Read      *IO     `json:"read,omitempty"` // nil when the job did no I/O that way
	Write     *IO     `json:"write,omitempty"`
	Trim      *IO     `json:"trim,omitempty"`
	RuntimeMs float64 `json:"runtime_ms,omitempty"` // job_runtime (JSON only)
	UsrCPU    float64 `json:"usr_cpu"`              // percent
	SysCPU    float64 `json:"sys_cpu"`
}

// IO is one direction of a job. Latencies are in µs.
type IO struct {
	IOBytes         uint64             `json:"io_bytes"`
	MiBps           float64            `json:"mib_s"`
	IOPS            float64            `json:"iops"`
	RuntimeMs       float64            `json:"runtime_ms"`
	TotalIOs        uint64             `json:"total_ios,omitempty"`
	Slat            Stats              `json:"slat_us"`
	Clat            Stats              `json:"clat_us"`
	Lat             Stats              `json:"lat_us"`
	ClatPercentiles map[string]float64 `json:"clat_percentiles_us,omitempty"` // "99", "99.9" -> µs
}

// Stats is a latency summary in µs.
type Stats struct {
	Min    float64 `json:"min"`
	Max    float64 `json:"max"`
	Mean   float64 `json:"mean"`
	Stddev float64 `json:"stddev"`
	N      uint64  `json:"n,omitempty"`
}

// directions returns the job's directions that did I/O.
func (j Job) directions() []struct {
	op string
	io *IO
} {
	var out []struct {
		op string
		io *IO
	}
	for _, d := range []struct {
		op string
		io *IO
	}{{"read", j.Read}, {"write", j.Write}, {"trim", j.Trim}} {
		if d.io != nil {
			out = append(out, d)
		}
	}
	return out
}

// Bench returns one bench.Result per direction the job did I/O in. The
// latency is fio's completion latency (clat), whose percentiles fio reports.
func (j Job) Bench() []bench.Result {
	var out []bench.Result
	for _, d := range j.directions() {
		r := bench.Result{Tool: "fio", Name: j.Name, Op: d.op, IOPS: d.io.IOPS,
			Runtime: time.Duration(d.io.RuntimeMs * float64(time.Millisecond))}
		r.SetMiBps(d.io.MiBps)
		if d.io.Clat.N > 0 || d.io.Clat.Max > 0 {
			r.LatUs.Set(bench.Min, d.io.Clat.Min)
			r.LatUs.Set(bench.Avg, d.io.Clat.Mean)
			r.LatUs.Set(bench.Max, d.io.Clat.Max)
		}
		for key, f := range map[string]bench.Field{"50": bench.P50, "90": bench.P90, "99": bench.P99, "99.9": bench.P999} {
			if v, ok := d.io.ClatPercentiles[key]; ok {
				r.LatUs.Set(f, v)
			}
		}
		out = append(out, r)
	}
	return out
}

// Bench returns the bench.Results of every job.
func (r Result) Bench() []bench.Result {
	var out []bench.Result
	for _, j := range r.Jobs {
		out = append(out, j.Bench()...)
	}
	return out
}

// Total sums IOPS and bandwidth over all jobs and directions. Its latency
// is exact for a single job direction; otherwise min, max and the
// I/O-weighted mean of clat, without percentiles.
func (r Result) Total() bench.Result {
	all := r.Bench()
	if len(all) == 1 {
		return all[0]
	}
	t := bench.Result{Tool: "fio", Op: "total"}
	var mib, weighted, n float64
	min, max := math.Inf(1), 0.0
	for _, j := range r.Jobs {
		for _, d := range j.directions() {
			t.IOPS += d.io.IOPS
			mib += d.io.MiBps
			if ms := time.Duration(d.io.RuntimeMs * float64(time.Millisecond)); ms > t.Runtime {
				t.Runtime = ms
			}
			if d.io.Clat.N == 0 {
				continue
			}
			weighted += d.io.Clat.Mean * float64(d.io.Clat.N)
			n += float64(d.io.Clat.N)
			min, max = math.Min(min, d.io.Clat.Min), math.Max(max, d.io.Clat.Max)
		}
	}
	t.SetMiBps(mib)
	if n > 0 {
		t.LatUs.Set(bench.Avg, weighted/n)
		t.LatUs.Set(bench.Min, min)
		t.LatUs.Set(bench.Max, max)
	}
	return t
}
