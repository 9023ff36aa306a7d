package compare

import (
	"context"
	"fmt"
	"math"
	"strings"

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
	r := readSide(results{name: "rdma", lat: req.Args.GetAttr("lat_rdma"), iops: req.Args.GetAttr("rdma"), seq: req.Args.GetAttr("seq_rdma")}, th)
	t := readSide(results{name: "tcp", lat: req.Args.GetAttr("lat_tcp"), iops: req.Args.GetAttr("tcp"), seq: req.Args.GetAttr("seq_tcp")}, th)
	lat, ratio := latencyLine(r, t, th)
	cpu, drop := cpuLine(r, t, th)
	bw, rs, ts := bandwidthLine(r, t, th)
	resp.Checks = []module.Check{lat, cpu, bw}
	fair := module.Check{Verdict: pass}
	if th.guards() {
		fair = fairnessLine(r, t, th)
		resp.Checks = append(resp.Checks, fair)
	}
	verdict := overall(resp.Checks)
	tbl := table(r, t, th, resp.Checks, ratio, drop, rs, ts)
	ipoib := isIPoIB(req.Args.GetAttr("link_layer"))
	if ipoib {
		tbl += "note: the data port's link layer is InfiniBand, so \"TCP\" is TCP over IPoIB: the TCP column is IPoIB's, not an Ethernet NIC's with its offloads\n"
		if th.Name != profile.IPoIB {
			tbl += "note: judged by " + th.Name + ", whose bandwidth line expects TCP at the line rate; " + profile.IPoIB + " is the profile for TCP over IPoIB\n"
		}
	}
	var warnings []cty.Value
	for _, c := range resp.Checks {
		if c.Verdict == warn {
			warnings = append(warnings, cty.StringVal(c.Name+": "+c.Message))
		}
	}
	ws := cty.ListValEmpty(cty.String)
	if len(warnings) > 0 {
		ws = cty.ListVal(warnings)
	}
	softDrop := opt{}
	if r.soft.ok && t.soft.ok && t.soft.v > 0 {
		softDrop = some((1 - r.soft.v/t.soft.v) * 100)
	}
	resp.Outputs = cty.ObjectVal(map[string]cty.Value{
		"profile":         cty.StringVal(th.Name),
		"latency_ratio":   val(ratio),
		"lat_stat":        cty.StringVal(r.latStat),
		"lat_rdma_us":     val(r.lat),
		"lat_tcp_us":      val(t.lat),
		"p99_rdma_us":     val(r.latP99),
		"p99_tcp_us":      val(t.latP99),
		"iops_rdma":       val(r.iops),
		"iops_tcp":        val(t.iops),
		"cpu_run":         cty.StringVal(runKind(r.cpuRun)),
		"soft_rdma_pct":   val(r.soft),
		"soft_tcp_pct":    val(t.soft),
		"soft_drop_pct":   val(softDrop),
		"kernel_rdma_pct": val(r.kernel),
		"kernel_tcp_pct":  val(t.kernel),
		"cpu_drop_pct":    val(drop),
		"busy_cores_rdma": val(r.busy),
		"busy_cores_tcp":  val(t.busy),
		"bw_rdma_mib_s":   val(r.mib),
		"bw_tcp_mib_s":    val(t.mib),
		"bw_share_rdma":   val(rs),
		"bw_share_tcp":    val(ts),
		"latency":         cty.StringVal(lat.Verdict),
		"cpu":             cty.StringVal(cpu.Verdict),
		"bandwidth":       cty.StringVal(bw.Verdict),
		"iops":            cty.StringVal(fair.Verdict),
		"warnings":        ws,
		"tcp_is_ipoib":    cty.BoolVal(ipoib),
		"verdict":         cty.StringVal(verdict),
		"table":           cty.StringVal(tbl),
	})
	resp.Stdout = tbl
	resp.Failed = verdict == fail
	resp.Message = fmt.Sprintf("%s: latency %s, cpu %s, bandwidth %s", verdict, lat.Verdict, cpu.Verdict, bw.Verdict)
	if th.guards() {
		resp.Message += ", iops " + fair.Verdict
	}
	resp.Message += " (" + th.Name + ")"
	for _, c := range resp.Checks {
		if c.Verdict != pass {
			resp.Message += "; " + c.Name + ": " + c.Message
		}
	}
	return resp, nil
}

// isIPoIB reports whether link_layer names InfiniBand.
func isIPoIB(v cty.Value) bool {
	v, _ = v.UnmarkDeep()
	return v.IsKnown() && !v.IsNull() && strings.EqualFold(v.AsString(), "InfiniBand")
}

// guards reports whether the profile has the fairness line.
func (th thresholds) guards() bool {
	return th.CPUBoundPct > 0 || th.SameCeilingPct > 0 || th.MaxSpreadPct > 0
}

func val(o opt) cty.Value {
	if !o.ok {
		return cty.NullVal(cty.Number)
	}
	return cty.NumberFloatVal(round(o.v))
}

// round keeps 4 decimals so outputs read well and compare stably.
func round(v float64) float64 { return math.Round(v*1e4) / 1e4 }
