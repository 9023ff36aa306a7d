package compare

import (
	"context"
	"fmt"
	"math"

	"github.com/zclconf/go-cty/cty"

	"github.com/provadev/prova/engine/module"
	"github.com/provadev/prova/modules/internal/profile"
)

// Reads implements module.ReadOnly: the comparison only reads its
// arguments.
func (*Compare) Reads(v cty.Value) string {
	th, err := readThresholds(v)
	if err != nil {
		return "compares RDMA with TCP"
	}
	return "compares RDMA with TCP by " + th.Name
}

func readThresholds(args cty.Value) (thresholds, error) {
	p, err := profile.Lookup(args.GetAttr("profile").AsString())
	if err != nil {
		return thresholds{}, err
	}
	th := thresholds{Profile: p, lineRate: get(args, "line_rate_gbps")}
	if o := get(args, "max_latency_ratio"); o.ok {
		th.MaxLatencyRatio = o.v
	}
	if o := get(args, "min_soft_drop_pct"); o.ok {
		th.MinSoftDropPct = o.v
	}
	if o := get(args, "min_bandwidth_share"); o.ok {
		th.MinBandwidthShare = o.v
	}
	return th, nil
}

// Apply judges the three lines. Any fail verdict fails the step; a
// bandwidth warning does not.
func (*Compare) Apply(ctx context.Context, req module.ApplyRequest) (module.ApplyResponse, error) {
	resp := module.ApplyResponse{Outputs: cty.NullVal(outputsType)}
	th, err := readThresholds(req.Args)
	if err != nil {
		return resp, err
	}
	r := readSide(req.Args.GetAttr("rdma"), req.Args.GetAttr("seq_rdma"))
	t := readSide(req.Args.GetAttr("tcp"), req.Args.GetAttr("seq_tcp"))
	lat, ratio := latencyLine(r, t, th)
	cpu, drop := cpuLine(r, t, th)
	bw, rs, ts := bandwidthLine(r, t, th)
	resp.Checks = []module.Check{lat, cpu, bw}
	verdict := overall(resp.Checks)
	tbl := table(r, t, th, resp.Checks, ratio, drop, rs, ts)
	resp.Outputs = cty.ObjectVal(map[string]cty.Value{
		"profile":         cty.StringVal(th.Name),
		"latency_ratio":   val(ratio),
		"lat_rdma_us":     val(r.lat),
		"lat_tcp_us":      val(t.lat),
		"soft_rdma_pct":   val(r.soft),
		"soft_tcp_pct":    val(t.soft),
		"soft_drop_pct":   val(drop),
		"busy_cores_rdma": val(r.busy),
		"busy_cores_tcp":  val(t.busy),
		"bw_rdma_mib_s":   val(r.mib),
		"bw_tcp_mib_s":    val(t.mib),
		"bw_share_rdma":   val(rs),
		"bw_share_tcp":    val(ts),
		"latency":         cty.StringVal(lat.Verdict),
		"cpu":             cty.StringVal(cpu.Verdict),
		"bandwidth":       cty.StringVal(bw.Verdict),
		"verdict":         cty.StringVal(verdict),
		"table":           cty.StringVal(tbl),
	})
	resp.Stdout = tbl
	resp.Failed = verdict == fail
	resp.Message = fmt.Sprintf("%s: latency %s, cpu %s, bandwidth %s (%s)", verdict, lat.Verdict, cpu.Verdict, bw.Verdict, th.Name)
	for _, c := range resp.Checks {
		if c.Verdict != pass {
			resp.Message += "; " + c.Name + ": " + c.Message
		}
	}
	return resp, nil
}

func val(o opt) cty.Value {
	if !o.ok {
		return cty.NullVal(cty.Number)
	}
	return cty.NumberFloatVal(round(o.v))
}

// round keeps 4 decimals so outputs read well and compare stably.
func round(v float64) float64 { return math.Round(v*1e4) / 1e4 }
