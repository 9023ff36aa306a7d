package bench

import (
	"github.com/zclconf/go-cty/cty"

	"github.com/provadev/prova/engine/module"
	"github.com/provadev/prova/parse/bench"
)

// result is the outputs as a Go value; nil pointers are null outputs.
type result struct {
	Tool      string     `cty:"tool"`
	Op        string     `cty:"op"`
	BlockSize *float64   `cty:"block_size"`
	InFlight  *int       `cty:"in_flight"`
	IOPS      *float64   `cty:"iops"`
	MiBps     *float64   `cty:"mib_s"`
	Gbps      *float64   `cty:"gbps"`
	LatAvg    *float64   `cty:"lat_avg_us"`
	LatMin    *float64   `cty:"lat_min_us"`
	LatMax    *float64   `cty:"lat_max_us"`
	LatP50    *float64   `cty:"lat_p50_us"`
	LatP99    *float64   `cty:"lat_p99_us"`
	LatP999   *float64   `cty:"lat_p999_us"`
	RuntimeS  *float64   `cty:"runtime_s"`
	CPU       *cpuResult `cty:"cpu"`
	Runs      *int       `cty:"runs"`
	SpreadPct *float64   `cty:"spread_pct"`
	ServerPID *int       `cty:"server_pid"`
}

func ptr(v float64) *float64 { v = round(v); return &v }

// fromBench fills the outputs from a normalised result. Throughput and
// IOPS of 0 are reported as measured (0); latency statistics the tool did
// not report are null.
func fromBench(b bench.Result) result {
	r := result{Tool: b.Tool, Op: b.Op, IOPS: ptr(b.IOPS), MiBps: ptr(b.MiBps), Gbps: ptr(b.Gbps)}
	for _, f := range []struct {
		field bench.Field
		dst   **float64
	}{{bench.Avg, &r.LatAvg}, {bench.Min, &r.LatMin}, {bench.Max, &r.LatMax}, {bench.P50, &r.LatP50},
		{bench.P99, &r.LatP99}, {bench.P999, &r.LatP999}} {
		if v, ok := b.LatUs.Get(f.field); ok {
			*f.dst = ptr(v)
		}
	}
	if b.Runtime > 0 {
		r.RuntimeS = ptr(b.Runtime.Seconds())
	}
	return r
}

func (r result) value() (cty.Value, error) {
	return module.Encode(r, outputsType)
}
