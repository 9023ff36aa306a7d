package report

import (
	"fmt"
	"github.com/provadev/prova/internal/hostlist"
	"io"
	"strings"
)

// WriteMarkdown renders the report as Markdown: a one-screen summary, the
// failures, the three lines side by side, tool versions, the baseline and
// waiver sections when present, then one assertion table per host.
func (r *Report) WriteMarkdown(w io.Writer) error {
	var b strings.Builder
	m := r.Run.Meta
	fmt.Fprintf(&b, "# prova report: %s\n\n", md(orDash(m.Runbook)))
	fmt.Fprintf(&b, "**Verdict: %s**: %s.\n\n", strings.ToUpper(r.Verdict()), r.verdictLine())

	if fl := r.findingLines(); len(fl) > 0 {
		b.WriteString("## Findings\n\n")
		for _, f := range fl {
			fmt.Fprintf(&b, "- **%s** (%s, %d host(s): %s): %s\n", md(f.Cause), f.Status, f.N, md(f.Hosts), md(f.Text))
		}
		b.WriteString("\n")
	}
	if fl := r.failureLines(); len(fl) > 0 {
		b.WriteString("## Failed\n\n")
		for i, f := range fl {
			if i == maxListed {
				fmt.Fprintf(&b, "- and %d more: see the appendix\n", len(fl)-maxListed)
				break
			}
			fmt.Fprintf(&b, "- **%s** %s\n", md(f.Host), md(f.Text))
		}
		b.WriteString("\n")
	}

	shown, folds := r.shownLines()
	if len(r.Lines) > 0 {
		b.WriteString("## Three lines: RDMA vs TCP\n\n")
		r.linesTable(&b, shown)
		for _, f := range folds {
			fmt.Fprintf(&b, "| %s | %s | | | | | pass | |\n", md(hostCount(f.Hosts)), f.Line)
		}
		b.WriteString("\nBandwidth is a reference, not a criterion: TCP reaches line rate too.")
		if folds != nil {
			b.WriteString(" Hosts that pass a line are folded into one row; every row is in the appendix.")
		}
		b.WriteString("\n\n")
	}

	b.WriteString("## Run\n\n| | |\n|---|---|\n")
	for _, kv := range r.summaryRows() {
		fmt.Fprintf(&b, "| %s | %s |\n", kv[0], md(kv[1]))
	}
	b.WriteString("\n")

	if len(r.Versions) > 0 {
		b.WriteString("## Tool versions\n\n| tool | version | hosts |\n|---|---|---|\n")
		for _, v := range r.Versions {
			fmt.Fprintf(&b, "| %s | %s | %s |\n", md(v.Tool), md(v.Value), md(hostList(v.Hosts)))
		}
		b.WriteString("\n")
	}

	if r.Baseline != nil {
		b.WriteString("## Baseline\n\n")
		if err := r.Baseline.WriteMarkdown(&b, false); err != nil {
			return err
		}
	}

	if r.Waivers != nil {
		st := r.waiverStatus()
		b.WriteString("## Waivers\n\n| waiver | assertion | hosts | justification | expires | status |\n|---|---|---|---|---|---|\n")
		for _, wv := range r.waiverList() {
			fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s |\n", md(wv.Name), md(wv.Assertion), md(orAll(wv.Hosts)),
				md(wv.Justification), md(wv.ExpiresText), md(st[wv.Name]))
		}
		b.WriteString("\n")
	}

	b.WriteString("## Appendix\n")
	if folds != nil {
		b.WriteString("\n### Three lines, every host\n\n")
		r.linesTable(&b, r.Lines)
	}
	b.WriteString("\n### Assertions by host\n")
	hosts := r.Hosts
	if len(r.Hosts) > collapseAt {
		hosts = r.notCleanList()
		if clean := r.cleanHosts(); len(clean) > 0 {
			fmt.Fprintf(&b, "\n%d host(s) passed every assertion: %s.\n", len(clean), md(hostlist.Fold(clean)))
		}
	}
	for _, h := range hosts {
		var rows []string
		for _, o := range r.Assertions {
			if o.Host != h {
				continue
			}
			msg := o.Message
			if o.Waiver != nil {
				msg = strings.TrimSpace(msg + " (waived: " + o.Waiver.Justification + ")")
			}
			rows = append(rows, fmt.Sprintf("| %s | %s | %s | %s | %s | %s |", md(o.Step), md(o.Name), md(orDash(o.Measured)),
				md(orDash(o.Threshold)), verdictMD(o.Verdict), md(msg)))
		}
		if len(rows) == 0 {
			continue
		}
		fmt.Fprintf(&b, "\n#### %s\n\n| step | check | measured | threshold | verdict | message |\n|---|---|---|---|---|---|\n%s\n", md(h), strings.Join(rows, "\n"))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// maxListed bounds the failures listed before the appendix.
const maxListed = 20

func (r *Report) linesTable(b *strings.Builder, lines []Line) {
	b.WriteString("| host | line | RDMA | TCP | measured | threshold | verdict | raw output |\n|---|---|---|---|---|---|---|---|\n")
	for _, l := range lines {
		var raws []string
		for i, p := range l.Raw {
			raws = append(raws, fmt.Sprintf("[%s](%s)", md(l.rawNames[i]), r.rawLink(p)))
		}
		fmt.Fprintf(b, "| %s | %s | %s | %s | %s | %s | %s | %s |\n", md(l.Host), l.Line, md(orDash(l.RDMA)), md(orDash(l.TCP)),
			md(l.Measured), md(orDash(l.Threshold)), verdictMD(l.Verdict), strings.Join(raws, "<br>"))
	}
}

// hostCount is "46 hosts: gpfs[01-03,05-47]".
func hostCount(hosts []string) string {
	return fmt.Sprintf("%d hosts: %s", len(hosts), hostlist.Fold(hosts))
}

// notCleanList is the hosts that are not clean, in report order.
func (r *Report) notCleanList() []string {
	bad := r.notCleanHosts()
	var out []string
	for _, h := range r.Hosts {
		if bad[h] {
			out = append(out, h)
		}
	}
	return out
}

func orAll(hosts []string) string {
	if len(hosts) == 0 {
		return "all"
	}
	return strings.Join(hosts, ", ")
}

// md makes s safe in a Markdown table cell or list item: pipes and
// backslashes escaped, line breaks flattened, and "<" escaped where it
// could open an HTML tag ("<= 0.5" stays readable).
func md(s string) string {
	s = strings.NewReplacer("\\", "\\\\", "|", "\\|", "\r", " ", "\n", " ").Replace(s)
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '<' && i+1 < len(s) && isTagStart(s[i+1]) {
			b.WriteString("&lt;")
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

func isTagStart(c byte) bool {
	return c == '/' || c == '!' || c == '?' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

func verdictMD(v string) string {
	if v == "fail" {
		return "**FAIL**"
	}
	return v
}
