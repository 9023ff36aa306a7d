package compare

import (
	"fmt"
	"math"

	"github.com/zclconf/go-cty/cty"

	"github.com/provadev/prova/engine/module"
	"github.com/provadev/prova/modules/internal/profile"
	"github.com/provadev/prova/parse/bench"
)

// side is what one transport's results give.
type side struct {
	lat, soft, busy, mib opt
}

// opt is a measurement that may be missing.
type opt struct {
	v  float64
	ok bool
}

func some(v float64) opt { return opt{v: v, ok: !math.IsNaN(v) && !math.IsInf(v, 0)} }

// get walks attributes of v; a missing, null or unknown value is missing.
func get(v cty.Value, path ...string) opt {
	for _, n := range path {
		v, _ = v.UnmarkDeep()
		if v == cty.NilVal || v.IsNull() || !v.IsKnown() {
			return opt{}
		}
		switch t := v.Type(); {
		case t.IsObjectType() && t.HasAttribute(n):
			v = v.GetAttr(n)
		case t.IsMapType() && v.HasIndex(cty.StringVal(n)).True():
			v = v.Index(cty.StringVal(n))
		default:
			return opt{}
		}
	}
	v, _ = v.UnmarkDeep()
	if v.IsNull() || !v.IsKnown() || !v.Type().Equals(cty.Number) {
		return opt{}
	}
	f, _ := v.AsBigFloat().Float64()
	return some(f)
}

func first(os ...opt) opt {
	for _, o := range os {
		if o.ok {
			return o
		}
	}
	return opt{}
}

func readSide(v, seq cty.Value) side {
	s := side{
		lat:  first(get(v, "lat_avg_us"), get(v, "lat_p50_us")),
		soft: get(v, "cpu", "soft_pct"),
		busy: get(v, "cpu", "busy_cores"),
	}
	if seq != cty.NilVal && !seq.IsNull() {
		s.mib = first(get(seq, "mib_s"), gbpsToMiB(get(seq, "gbps")))
	}
	return s
}

func gbpsToMiB(o opt) opt {
	if !o.ok {
		return o
	}
	return some(bench.GbpsToMiBps(o.v))
}

// thresholds are the profile with the runbook's overrides.
type thresholds struct {
	profile.Profile
	lineRate opt
}

const (
	pass = "pass"
	fail = "fail"
	warn = "warn"
)

func latencyLine(r, t side, th thresholds) (module.Check, opt) {
	c := module.Check{Name: "latency: RDMA/TCP ratio", Threshold: fmt.Sprintf("<= %.2f", th.MaxLatencyRatio)}
	switch {
	case !r.lat.ok || !t.lat.ok:
		c.Verdict, c.Measured = fail, "n/a"
		c.Message = "latency not measured over " + missing(r.lat.ok, t.lat.ok)
		return c, opt{}
	case t.lat.v <= 0:
		c.Verdict, c.Measured, c.Message = fail, "n/a", "TCP latency is 0: cannot form a ratio"
		return c, opt{}
	}
	ratio := some(r.lat.v / t.lat.v)
	c.Measured = fmt.Sprintf("%.2f (%.1f µs / %.1f µs)", ratio.v, r.lat.v, t.lat.v)
	c.Verdict = pass
	if ratio.v > th.MaxLatencyRatio {
		c.Verdict = fail
		c.Message = fmt.Sprintf("RDMA latency is %.2f of TCP's, more than %.2f: RDMA is not in effect or not worth it", ratio.v, th.MaxLatencyRatio)
	}
	return c, ratio
}

func cpuLine(r, t side, th thresholds) (module.Check, opt) {
	c := module.Check{Name: "cpu: %soft drop RDMA vs TCP", Threshold: fmt.Sprintf(">= %.0f %%", th.MinSoftDropPct)}
	if th.FewerBusyCores {
		c.Threshold += " and fewer busy cores"
	}
	if !r.soft.ok || !t.soft.ok {
		c.Verdict, c.Measured = fail, "n/a"
		c.Message = "CPU (mpstat) not captured over " + missing(r.soft.ok, t.soft.ok)
		return c, opt{}
	}
	if t.soft.v <= 0 {
		c.Verdict, c.Measured = fail, fmt.Sprintf("%%soft %.2f vs %.2f", r.soft.v, t.soft.v)
		c.Message = "TCP %soft is 0: the TCP run did not load the CPU, nothing to compare"
		return c, opt{}
	}
	drop := some((1 - r.soft.v/t.soft.v) * 100)
	c.Measured = fmt.Sprintf("%.0f %% (%%soft %.2f vs %.2f)", drop.v, r.soft.v, t.soft.v)
	if r.busy.ok && t.busy.ok {
		c.Measured += fmt.Sprintf(", busy cores %.1f vs %.1f", r.busy.v, t.busy.v)
	}
	c.Verdict = pass
	switch {
	case drop.v < th.MinSoftDropPct:
		c.Verdict = fail
		c.Message = fmt.Sprintf("RDMA %%soft %.2f is only %.0f %% below TCP's %.2f (want >= %.0f %%)", r.soft.v, drop.v, t.soft.v, th.MinSoftDropPct)
	case th.FewerBusyCores && (!r.busy.ok || !t.busy.ok):
		c.Verdict, c.Message = fail, "busy cores not measured over "+missing(r.busy.ok, t.busy.ok)
	case th.FewerBusyCores && r.busy.v >= t.busy.v:
		c.Verdict = fail
		c.Message = fmt.Sprintf("RDMA keeps %.1f cores busy, not fewer than TCP's %.1f", r.busy.v, t.busy.v)
	}
	return c, drop
}

func bandwidthLine(r, t side, th thresholds) (module.Check, opt, opt) {
	c := module.Check{Name: "bandwidth: large sequential, share of line rate", Verdict: pass,
		Threshold: fmt.Sprintf(">= %.0f %% (warning only)", th.MinBandwidthShare*100)}
	if !r.mib.ok || !t.mib.ok {
		c.Verdict, c.Measured = warn, "n/a"
		c.Message = "sequential bandwidth not measured over " + missing(r.mib.ok, t.mib.ok)
		return c, opt{}, opt{}
	}
	rg, tg := bench.MiBpsToGbps(r.mib.v), bench.MiBpsToGbps(t.mib.v)
	c.Measured = fmt.Sprintf("RDMA %.0f MiB/s (%.1f Gb/s), TCP %.0f MiB/s (%.1f Gb/s)", r.mib.v, rg, t.mib.v, tg)
	if !th.lineRate.ok || th.lineRate.v <= 0 {
		c.Verdict, c.Message = warn, "line rate unknown (set line_rate_gbps): shares not computed"
		return c, opt{}, opt{}
	}
	rs, ts := some(rg/th.lineRate.v), some(tg/th.lineRate.v)
	c.Measured += fmt.Sprintf(" = %.0f %% / %.0f %% of %g Gb/s", rs.v*100, ts.v*100, th.lineRate.v)
	if rs.v < th.MinBandwidthShare || ts.v < th.MinBandwidthShare {
		c.Verdict = warn
		c.Message = fmt.Sprintf("below %.0f %% of the line rate (RDMA %.0f %%, TCP %.0f %%): check the slowest link, MTU and the target's disks",
			th.MinBandwidthShare*100, rs.v*100, ts.v*100)
	}
	return c, rs, ts
}

func missing(rdma, tcp bool) string {
	switch {
	case !rdma && !tcp:
		return "RDMA and TCP"
	case !rdma:
		return "RDMA"
	}
	return "TCP"
}

// overall is fail if any line fails, else warn if any warns, else pass.
func overall(cs []module.Check) string {
	v := pass
	for _, c := range cs {
		switch c.Verdict {
		case fail:
			return fail
		case warn:
			v = warn
		}
	}
	return v
}
