package baseline

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"
)

// FormatValue prints a number without float noise.
func FormatValue(v float64) string { return strconv.FormatFloat(v, 'g', 6, 64) }

// FormatChange prints a row's change: "+0.4 (+21.1%)".
func (r Row) FormatChange() string {
	s := signed(r.Change)
	if r.ChangePct != nil {
		s += " (" + signed(*r.ChangePct) + "%)"
	}
	return s
}

// FormatTolerance prints the regression allowed, signed in the bad
// direction ("+20%" for latency, "-10%" for bandwidth); "-" when unjudged.
func (r Row) FormatTolerance() string {
	switch {
	case r.Better == Unknown:
		return "-"
	case r.TolerancePct == 0:
		return "0%"
	}
	switch r.Better {
	case Lower:
		return "+" + FormatValue(r.TolerancePct) + "%"
	case Higher:
		return "-" + FormatValue(r.TolerancePct) + "%"
	}
	return "-"
}

// HostLabel is the row's host, "(cluster)" for cluster rows and a "(new)"
// mark for hosts the baseline has not seen.
func (r Row) HostLabel() string {
	switch {
	case r.Host == "":
		return "(cluster)"
	case r.New:
		return r.Host + " (new)"
	}
	return r.Host
}

func signed(v float64) string {
	if v > 0 {
		return "+" + FormatValue(v)
	}
	return FormatValue(v)
}

// Summary is one line: "3 regressions in 42 comparisons against RUN".
func (c *Comparison) Summary() string {
	n := len(c.Hosts) + len(c.Cluster)
	s := fmt.Sprintf("%d regression(s) in %d comparisons against baseline %s (tolerances %s)", c.Failed, n, c.Baseline, c.Profile)
	if len(c.New) > 0 {
		s += fmt.Sprintf("; new hosts: %s", strings.Join(c.New, ", "))
	}
	if len(c.Missing) > 0 {
		s += fmt.Sprintf("; missing hosts: %s", strings.Join(c.Missing, ", "))
	}
	return s
}

// WriteText prints the comparison for a terminal: the summary, then the
// failed rows, or every row with all set.
func (c *Comparison) WriteText(w io.Writer, all bool) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, c.Summary())
	rows := c.rows(all)
	if len(rows) > 0 {
		fmt.Fprintln(tw, "HOST\tMETRIC\tBASELINE\tNOW\tCHANGE\tTOLERANCE\tVERDICT")
	}
	for _, r := range rows {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", r.HostLabel(), r.Metric, FormatValue(r.Baseline),
			FormatValue(r.Current), r.FormatChange(), r.FormatTolerance(), r.Verdict)
	}
	return tw.Flush()
}

// WriteMarkdown prints the comparison as Markdown: the summary, the
// cluster table, then the per-host table (every row with all set,
// otherwise failed and new-host rows only).
func (c *Comparison) WriteMarkdown(w io.Writer, all bool) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%s.\n\n", c.Summary())
	table := func(title string, rows []Row) {
		if len(rows) == 0 {
			return
		}
		fmt.Fprintf(&b, "%s\n\n| host | metric | baseline | now | change | tolerance | verdict |\n|---|---|---:|---:|---:|---:|---|\n", title)
		for _, r := range rows {
			fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s | %s |\n", mdCell(r.HostLabel()), mdCell(r.Metric), FormatValue(r.Baseline),
				FormatValue(r.Current), r.FormatChange(), r.FormatTolerance(), verdictMD(r.Verdict))
		}
		b.WriteString("\n")
	}
	table("Cluster (median over nodes):", c.Cluster)
	var hosts []Row
	for _, r := range c.Hosts {
		if all || r.Verdict == Fail || r.New {
			hosts = append(hosts, r)
		}
	}
	table("Per node:", hosts)
	_, err := io.WriteString(w, b.String())
	return err
}

func (c *Comparison) rows(all bool) []Row {
	var out []Row
	for _, r := range append(append([]Row(nil), c.Cluster...), c.Hosts...) {
		if all || r.Verdict == Fail {
			out = append(out, r)
		}
	}
	return out
}

// mdCell makes s safe inside a Markdown table cell.
func mdCell(s string) string {
	s = strings.NewReplacer("\\", "\\\\", "|", "\\|", "\r", " ", "\n", " ").Replace(s)
	if s == "" {
		return " "
	}
	return s
}

func verdictMD(v string) string {
	if v == Fail {
		return "**FAIL**"
	}
	return v
}
