package compare

import (
	"fmt"
	"strings"
	"text/tabwriter"

	"github.com/provadev/prova/engine/module"
)

// table is the side-by-side text for the deployment document. Each line
// says which run it comes from.
func table(r, t side, th thresholds, cs []module.Check, ratio, drop, rs, ts opt) string {
	var b strings.Builder
	w := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	fmt.Fprintf(w, "line\trun\tTCP\tRDMA\tRDMA vs TCP\tthreshold\tverdict\n")
	latRun := "as given"
	if th.LatencyQD1 {
		latRun = "4K, 1 in flight"
	}
	fmt.Fprintf(w, "latency (%s)\t%s\t%s\t%s\t%s\t%s\t%s\n", r.latStat, latRun, f(t.lat, "%.1f µs"), f(r.lat, "%.1f µs"), f(ratio, "ratio %.2f"), cs[0].Threshold, cs[0].Verdict)
	if r.latP99.ok || t.latP99.ok {
		fmt.Fprintf(w, "latency (p99)\t%s\t%s\t%s\t\t\t\n", latRun, f(t.latP99, "%.1f µs"), f(r.latP99, "%.1f µs"))
	}
	if th.guards() {
		fmt.Fprintf(w, "IOPS\t4K, high queue depth\t%s\t%s\t\t\t%s\n", f(t.iops, "%.0f"), f(r.iops, "%.0f"), cs[3].Verdict)
	}
	cpuRun := runKind(r.cpuRun)
	if th.CPUMetric == "kernel" {
		fmt.Fprintf(w, "CPU %%soft\t%s\t%s\t%s\t\t\t\n", cpuRun, f(t.soft, "%.2f %%"), f(r.soft, "%.2f %%"))
		fmt.Fprintf(w, "CPU %%soft+%%sys+%%irq\t%s\t%s\t%s\t%s\t%s\t%s\n", cpuRun, f(t.kernel, "%.2f %%"), f(r.kernel, "%.2f %%"), f(neg(drop), "%+.0f %%"), cs[1].Threshold, cs[1].Verdict)
	} else {
		fmt.Fprintf(w, "CPU %%soft\t%s\t%s\t%s\t%s\t%s\t%s\n", cpuRun, f(t.soft, "%.2f %%"), f(r.soft, "%.2f %%"), f(neg(drop), "%+.0f %%"), cs[1].Threshold, cs[1].Verdict)
	}
	fmt.Fprintf(w, "busy cores\t%s\t%s\t%s\t\t\t\n", cpuRun, f(t.busy, "%.1f"), f(r.busy, "%.1f"))
	if th.CPUAtLineRate && r.cpuGBps.ok && t.cpuGBps.ok {
		fmt.Fprintf(w, "  per GB/s\t%s\t%s\t%s\t\t\t\n", cpuRun, f(t.perGBps(t.cpuFigure(th), th), "%.3f %%")+", "+f(t.perGBps(t.busy, th), "%.2f cores"),
			f(r.perGBps(r.cpuFigure(th), th), "%.3f %%")+", "+f(r.perGBps(r.busy, th), "%.2f cores"))
	}
	fmt.Fprintf(w, "bandwidth (seq)\tsequential\t%s\t%s\t\t%s\t%s\n", f(t.mib, "%.0f MiB/s"), f(r.mib, "%.0f MiB/s"), cs[2].Threshold, cs[2].Verdict)
	if th.lineRate.ok {
		fmt.Fprintf(w, "share of %g Gb/s\tsequential\t%s\t%s\t\t\t\n", th.lineRate.v, f(pct(ts), "%.0f %%"), f(pct(rs), "%.0f %%"))
	}
	w.Flush()
	for _, c := range cs {
		if c.Verdict == warn && c.Message != "" {
			fmt.Fprintf(&b, "warning: %s\n", c.Message)
		}
	}
	fmt.Fprintf(&b, "verdict: %s (profile %s)\n", overall(cs), th.Name)
	return b.String()
}

func f(o opt, format string) string {
	if !o.ok {
		return "n/a"
	}
	return fmt.Sprintf(format, o.v)
}

func neg(o opt) opt { return opt{v: -o.v, ok: o.ok} }

func pct(o opt) opt { return opt{v: o.v * 100, ok: o.ok} }
