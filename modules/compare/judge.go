package compare

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/provadev/prova/engine/module"
	"github.com/provadev/prova/modules/internal/profile"
	"github.com/provadev/prova/parse/bench"
)

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
	stat := "avg"
	if th.LatencyStat == "p50" {
		stat = "p50"
	}
	c := module.Check{Name: "latency: RDMA/TCP ratio", Threshold: fmt.Sprintf("<= %.2f", th.MaxLatencyRatio)}
	if th.LatencyQD1 {
		c.Name = "latency: RDMA/TCP ratio, " + stat + " at queue depth 1"
	}
	switch {
	case !r.lat.ok || !t.lat.ok:
		c.Verdict, c.Measured = fail, "n/a"
		c.Message = "latency not measured over " + missing(r.lat.ok, t.lat.ok)
		if th.LatencyQD1 {
			c.Message += " (give lat_rdma and lat_tcp: a 4K random-read run with threads = 1 and iodepth = 1)"
		}
		return c, opt{}
	case t.lat.v <= 0:
		c.Verdict, c.Measured, c.Message = fail, "n/a", "TCP latency is 0: cannot form a ratio"
		return c, opt{}
	}
	ratio := some(r.lat.v / t.lat.v)
	c.Measured = fmt.Sprintf("%.2f (%s %.1f µs / %.1f µs)", ratio.v, r.latStat, r.lat.v, t.lat.v)
	c.Verdict = pass
	if th.LatencyQD1 {
		for _, s := range []side{r, t} {
			if s.latInFlight.ok && s.latInFlight.v > 1 {
				c.Verdict = fail
				c.Message = fmt.Sprintf("%s ran with %.0f I/Os in flight: by Little's law its latency is at least in-flight / IOPS, "+
					"the queue's and not the transport's; measure latency with threads = 1 and iodepth = 1", s.latRun, s.latInFlight.v)
				return c, ratio
			}
		}
	}
	if ratio.v > th.MaxLatencyRatio {
		c.Verdict = fail
		c.Message = fmt.Sprintf("RDMA latency is %.2f of TCP's, more than %.2f: RDMA is not in effect or not worth it", ratio.v, th.MaxLatencyRatio)
	}
	return c, ratio
}

// cpuLine compares the profile's CPU figure: %soft of the small-block run
// (prova-default/1), or kernel CPU (%soft + %sys + %irq) of the line-rate
// sequential runs per GB/s moved (prova-default/2), and busy cores.
func cpuLine(r, t side, th thresholds) (module.Check, opt) {
	metric := "%soft"
	if th.CPUMetric == "kernel" {
		metric = "kernel CPU (%soft+%sys+%irq)"
	}
	perGB := th.CPUAtLineRate && r.cpuGBps.ok && t.cpuGBps.ok && r.cpuGBps.v > 0 && t.cpuGBps.v > 0
	unit := ""
	if perGB {
		unit = " per GB/s"
	}
	c := module.Check{Name: fmt.Sprintf("cpu: %s drop RDMA vs TCP (%s run%s)", metric, runKind(r.cpuRun), unit),
		Threshold: fmt.Sprintf(">= %.0f %%", th.MinSoftDropPct)}
	if th.FewerBusyCores {
		c.Threshold += " and fewer busy cores"
	}
	rf, tf := r.cpuFigure(th), t.cpuFigure(th)
	if !rf.ok || !tf.ok {
		c.Verdict, c.Measured = fail, "n/a"
		c.Message = "CPU (mpstat) not captured over " + missing(rf.ok, tf.ok) + " in " + r.cpuRun + "/" + t.cpuRun
		return c, opt{}
	}
	rb, tb := r.busy, t.busy
	if perGB {
		rf, tf, rb, tb = r.perGBps(rf, th), t.perGBps(tf, th), r.perGBps(rb, th), t.perGBps(tb, th)
	}
	if tf.v <= 0 {
		c.Verdict, c.Measured = fail, fmt.Sprintf("%s %.2f vs %.2f", metric, rf.v, tf.v)
		c.Message = "TCP " + metric + " is 0: the TCP run did not load the CPU, nothing to compare"
		return c, opt{}
	}
	drop := some((1 - rf.v/tf.v) * 100)
	c.Measured = fmt.Sprintf("%.0f %% (%s%s %.3g vs %.3g)", drop.v, metric, unit, rf.v, tf.v)
	if rb.ok && tb.ok {
		c.Measured += fmt.Sprintf(", busy cores%s %.2f vs %.2f", unit, rb.v, tb.v)
	}
	if th.CPUAtLineRate && !perGB {
		c.Measured += " (sequential bandwidth unknown: not normalised)"
	}
	c.Verdict = pass
	switch {
	case drop.v < th.MinSoftDropPct:
		c.Verdict = fail
		c.Message = fmt.Sprintf("RDMA %s%s %.3g is only %.0f %% below TCP's %.3g (want >= %.0f %%)", metric, unit, rf.v, drop.v, tf.v, th.MinSoftDropPct)
	case th.FewerBusyCores && (!rb.ok || !tb.ok):
		c.Verdict, c.Message = fail, "busy cores not measured over "+missing(rb.ok, tb.ok)
	case th.FewerBusyCores && rb.v >= tb.v:
		c.Verdict = fail
		c.Message = fmt.Sprintf("RDMA keeps %.2f cores busy%s, not fewer than TCP's %.2f", rb.v, unit, tb.v)
	}
	return c, drop
}

func runKind(name string) string {
	switch {
	case strings.HasPrefix(name, "seq_"):
		return "sequential"
	case strings.HasPrefix(name, "lat_"):
		return "queue-depth-1"
	}
	return "small-block"
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
	if th.BandwidthRDMAOnly {
		c.Threshold = fmt.Sprintf("RDMA >= %.0f %% (warning only; TCP over IPoIB not judged)", th.MinBandwidthShare*100)
	}
	if rs.v < th.MinBandwidthShare || (!th.BandwidthRDMAOnly && ts.v < th.MinBandwidthShare) {
		c.Verdict = warn
		c.Message = fmt.Sprintf("below %.0f %% of the line rate (RDMA %.0f %%, TCP %.0f %%): check the slowest link, MTU and the target's disks",
			th.MinBandwidthShare*100, rs.v*100, ts.v*100)
	}
	return c, rs, ts
}

// fairnessLine reports the high-queue-depth IOPS and warns when the
// comparison cannot mean what it says: a CPU-bound run, both transports
// at the same IOPS ceiling, or repeated runs that disagree. It never fails.
func fairnessLine(r, t side, th thresholds) module.Check {
	c := module.Check{Name: "iops and fairness: high queue depth 4K, guards", Verdict: pass,
		Threshold: fmt.Sprintf("warn: a core >= %.0f %% busy, IOPS within %.0f %%, spread > %.0f %%", th.CPUBoundPct, th.SameCeilingPct, th.MaxSpreadPct)}
	c.Measured = fmt.Sprintf("IOPS RDMA %s, TCP %s", f(r.iops, "%.0f"), f(t.iops, "%.0f"))
	var warns []string
	if r.iops.ok && t.iops.ok && th.SameCeilingPct > 0 && math.Max(r.iops.v, t.iops.v) > 0 {
		d := math.Abs(r.iops.v-t.iops.v) / math.Max(r.iops.v, t.iops.v) * 100
		if d <= th.SameCeilingPct {
			warns = append(warns, fmt.Sprintf("both transports reach the same IOPS ceiling (%.0f vs %.0f, %.1f %% apart): "+
				"the target (its device), not the transport, limits the high-queue-depth run, so its IOPS say nothing about RDMA", r.iops.v, t.iops.v, d))
		}
	}
	for _, s := range []side{t, r} {
		for _, run := range sortedKeys(s.hottest) {
			if h := s.hottest[run]; th.CPUBoundPct > 0 && h.ok && h.v >= th.CPUBoundPct {
				warns = append(warns, fmt.Sprintf("%s is CPU-bound (a core at %.0f %%): it measures the CPU, not the transport", run, h.v))
			}
		}
		for _, run := range sortedKeys(s.spread) {
			if sp := s.spread[run]; th.MaxSpreadPct > 0 && sp.ok && sp.v > th.MaxSpreadPct {
				warns = append(warns, fmt.Sprintf("%s: repeated runs spread %.0f %% (more than %.0f %%): the median is not stable", run, sp.v, th.MaxSpreadPct))
			}
		}
	}
	if len(warns) > 0 {
		c.Verdict, c.Message = warn, strings.Join(warns, "; ")
	}
	return c
}

func sortedKeys(m map[string]opt) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
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
