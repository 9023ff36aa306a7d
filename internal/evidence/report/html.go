package report

import (
	"fmt"
	"github.com/provadev/prova/internal/hostlist"
	"io"
	"strings"

	"github.com/provadev/prova/internal/evidence/baseline"
)

const css = `body{font:14px/1.4 system-ui,sans-serif;margin:2em;color:#222;max-width:1200px}
h1{font-size:1.5em}h2{font-size:1.2em;margin-top:1.6em;border-bottom:1px solid #ccc}
table{border-collapse:collapse;margin:.5em 0}th,td{border:1px solid #ccc;padding:3px 8px;text-align:left;vertical-align:top}
th{background:#f3f3f3}td.num{text-align:right}code{font-size:90%}
.verdict{font-weight:bold;padding:.4em .8em;display:inline-block}.verdict-pass{background:#dfd}.verdict-fail{background:#fdd}.verdict-incomplete{background:#fe9;border:2px dashed #a60}
tr.fail td.v{color:#b00;font-weight:bold}tr.waived td.v{color:#a60}tr.warn td.v{color:#a60}
.charts{display:flex;flex-wrap:wrap;gap:2em;align-items:flex-start}.chart-box{display:flex;flex-direction:column}.chart{overflow:visible}
svg text{font:11px system-ui,sans-serif;fill:#222}svg .panel-title{font-weight:bold}
.bar.rdma{fill:#2a6fb0}.bar.tcp{fill:#d9822b}.bar.connected{fill:#b9d8b9}.bar.missing{fill:#d00}.bar.missing-few{fill:#f2b8b8}
.limit{fill:#111}.ref{stroke:#444;stroke-width:1.5;stroke-dasharray:4 3}svg .note{fill:#555;font-style:italic}
.note{color:#555}`

// WriteHTML renders the report as one self-contained HTML file (inline
// CSS and SVG, no script, nothing fetched). The markup is well-formed XML
// too. docs/report.md lists the stable ids and classes.
func (r *Report) WriteHTML(w io.Writer) error {
	var b strings.Builder
	m := r.Run.Meta
	title := "prova report: " + orDash(m.Runbook)
	fmt.Fprintf(&b, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n<title>%s</title>\n<style>\n%s\n</style>\n</head>\n<body>\n", esc(title), css)
	fmt.Fprintf(&b, "<h1>%s</h1>\n", esc(title))
	fmt.Fprintf(&b, "<p class=\"verdict verdict-%s\" id=\"verdict\">Verdict: %s: %s.</p>\n", r.Verdict(), strings.ToUpper(r.Verdict()), esc(r.verdictLine()))

	if fl := r.findingLines(); len(fl) > 0 {
		b.WriteString("<h2>Findings</h2>\n<ul id=\"findings\">\n")
		for _, f := range fl {
			fmt.Fprintf(&b, "<li class=\"%s\"><strong>%s</strong> (%s, %d host(s): %s): %s</li>\n", esc(f.Status), esc(f.Cause), esc(f.Status), f.N, esc(f.Hosts), esc(f.Text))
		}
		b.WriteString("</ul>\n")
	}
	if fl := r.failureLines(); len(fl) > 0 {
		b.WriteString("<h2>Failed</h2>\n<ul id=\"failed\">\n")
		for i, f := range fl {
			if i == maxListed {
				fmt.Fprintf(&b, "<li>and %d more (see the assertions below)</li>\n", len(fl)-maxListed)
				break
			}
			fmt.Fprintf(&b, "<li><strong>%s</strong> %s</li>\n", esc(f.Host), esc(f.Text))
		}
		b.WriteString("</ul>\n")
	}

	if len(r.Lines) > 0 {
		shown, folds := r.shownLines()
		b.WriteString("<h2>Three lines: RDMA vs TCP</h2>\n")
		r.htmlLines(&b, "three-lines", shown, folds)
		if folds != nil {
			b.WriteString("<details id=\"three-lines-all\"><summary>every host</summary>\n")
			r.htmlLines(&b, "three-lines-every-host", r.Lines, nil)
			b.WriteString("</details>\n")
		}
		b.WriteString("<p class=\"note\">Bandwidth is a reference, not a criterion: TCP reaches line rate too.</p>\n")
	}

	r.htmlCharts(&b)

	b.WriteString("<h2>Run</h2>\n<table id=\"summary\">\n")
	for _, kv := range r.summaryRows() {
		fmt.Fprintf(&b, "<tr><th>%s</th><td>%s</td></tr>\n", esc(kv[0]), esc(kv[1]))
	}
	b.WriteString("</table>\n")

	if len(r.Versions) > 0 {
		b.WriteString("<h2>Tool versions</h2>\n<table id=\"versions\">\n<tr><th>tool</th><th>version</th><th>hosts</th></tr>\n")
		for _, v := range r.Versions {
			fmt.Fprintf(&b, "<tr><td>%s</td><td>%s</td><td>%s</td></tr>\n", esc(v.Tool), esc(v.Value), esc(hostList(v.Hosts)))
		}
		b.WriteString("</table>\n")
	}

	if r.Baseline != nil {
		c := r.Baseline
		fmt.Fprintf(&b, "<h2>Baseline</h2>\n<section id=\"baseline\">\n<p>%s.</p>\n", esc(c.Summary()))
		baselineTable(&b, "baseline-cluster", c.Cluster)
		baselineTable(&b, "baseline-hosts", c.Hosts)
		b.WriteString("</section>\n")
	}

	if r.Waivers != nil {
		st := r.waiverStatus()
		b.WriteString("<h2>Waivers</h2>\n<table id=\"waivers\">\n<tr><th>waiver</th><th>assertion</th><th>hosts</th><th>justification</th><th>expires</th><th>status</th></tr>\n")
		for _, wv := range r.waiverList() {
			fmt.Fprintf(&b, "<tr><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td></tr>\n", esc(wv.Name), esc(wv.Assertion),
				esc(orAll(wv.Hosts)), esc(wv.Justification), esc(wv.ExpiresText), esc(st[wv.Name]))
		}
		b.WriteString("</table>\n")
	}

	b.WriteString("<h2>Assertions by host</h2>\n")
	hosts := r.Hosts
	if len(r.Hosts) > collapseAt {
		hosts = r.notCleanList()
		if clean := r.cleanHosts(); len(clean) > 0 {
			fmt.Fprintf(&b, "<p class=\"note\" id=\"clean-hosts\">%d host(s) passed every assertion: %s. The JSON report lists every assertion.</p>\n", len(clean), esc(hostlist.Fold(clean)))
		}
	}
	b.WriteString("<table id=\"assertions\">\n<tr><th>host</th><th>step</th><th>check</th><th>measured</th><th>threshold</th><th>verdict</th><th>message</th></tr>\n")
	for _, h := range hosts {
		for _, o := range r.Assertions {
			if o.Host != h {
				continue
			}
			msg := o.Message
			if o.Waiver != nil {
				msg = strings.TrimSpace(msg + " (waived: " + o.Waiver.Justification + ")")
			}
			fmt.Fprintf(&b, "<tr class=\"%s\"><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td class=\"v\">%s</td><td>%s</td></tr>\n",
				esc(o.Verdict), esc(h), esc(o.Step), esc(o.Name), esc(orDash(o.Measured)), esc(orDash(o.Threshold)), esc(o.Verdict), esc(msg))
		}
	}
	b.WriteString("</table>\n</body>\n</html>\n")
	_, err := io.WriteString(w, b.String())
	return err
}

func (r *Report) htmlLines(b *strings.Builder, id string, lines []Line, folds []lineFold) {
	fmt.Fprintf(b, "<table id=\"%s\">\n<tr><th>host</th><th>line</th><th>RDMA</th><th>TCP</th><th>measured</th><th>threshold</th><th>verdict</th><th>raw output</th></tr>\n", id)
	for _, l := range lines {
		var raws []string
		for i, p := range l.Raw {
			raws = append(raws, fmt.Sprintf("<a href=\"%s\">%s</a>", esc(r.rawLink(p)), esc(l.rawNames[i])))
		}
		fmt.Fprintf(b, "<tr class=\"%s\"><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td class=\"v\">%s</td><td>%s</td></tr>\n",
			esc(l.Verdict), esc(l.Host), esc(l.Line), esc(orDash(l.RDMA)), esc(orDash(l.TCP)), esc(l.Measured), esc(orDash(l.Threshold)),
			esc(l.Verdict), strings.Join(raws, "<br/>"))
	}
	for _, f := range folds {
		fmt.Fprintf(b, "<tr class=\"pass folded\"><td>%s</td><td>%s</td><td></td><td></td><td></td><td></td><td class=\"v\">pass</td><td></td></tr>\n", esc(hostCount(f.Hosts)), esc(f.Line))
	}
	b.WriteString("</table>\n")
}

func baselineTable(b *strings.Builder, id string, rows []baseline.Row) {
	fmt.Fprintf(b, "<table id=\"%s\">\n<tr><th>host</th><th>metric</th><th>baseline</th><th>now</th><th>change</th><th>tolerance</th><th>verdict</th></tr>\n", id)
	for _, r := range rows {
		fmt.Fprintf(b, "<tr class=\"%s\"><td>%s</td><td>%s</td><td class=\"num\">%s</td><td class=\"num\">%s</td><td class=\"num\">%s</td><td class=\"num\">%s</td><td class=\"v\">%s</td></tr>\n",
			esc(r.Verdict), esc(r.HostLabel()), esc(r.Metric), baseline.FormatValue(r.Baseline), baseline.FormatValue(r.Current),
			esc(r.FormatChange()), esc(r.FormatTolerance()), esc(r.Verdict))
	}
	b.WriteString("</table>\n")
}
