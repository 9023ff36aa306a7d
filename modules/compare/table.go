package compare

import (
	"fmt"
	"strings"
	"text/tabwriter"

	"github.com/provadev/prova/engine/module"
)

// table is the side-by-side text for the deployment document.
func table(r, t side, th thresholds, cs []module.Check, ratio, drop, rs, ts opt) string {
	var b strings.Builder
	w := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	fmt.Fprintf(w, "line\tTCP\tRDMA\tRDMA vs TCP\tthreshold\tverdict\n")
	fmt.Fprintf(w, "latency (avg)\t%s\t%s\t%s\t%s\t%s\n", f(t.lat, "%.1f µs"), f(r.lat, "%.1f µs"), f(ratio, "ratio %.2f"), cs[0].Threshold, cs[0].Verdict)
	fmt.Fprintf(w, "CPU %%soft\t%s\t%s\t%s\t%s\t%s\n", f(t.soft, "%.2f %%"), f(r.soft, "%.2f %%"), f(neg(drop), "%+.0f %%"), cs[1].Threshold, cs[1].Verdict)
	fmt.Fprintf(w, "busy cores\t%s\t%s\t\t\t\n", f(t.busy, "%.1f"), f(r.busy, "%.1f"))
	fmt.Fprintf(w, "bandwidth (seq)\t%s\t%s\t\t%s\t%s\n", f(t.mib, "%.0f MiB/s"), f(r.mib, "%.0f MiB/s"), cs[2].Threshold, cs[2].Verdict)
	if th.lineRate.ok {
		fmt.Fprintf(w, "share of %g Gb/s\t%s\t%s\t\t\t\n", th.lineRate.v, f(pct(ts), "%.0f %%"), f(pct(rs), "%.0f %%"))
	}
	w.Flush()
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
