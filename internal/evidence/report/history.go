package report

import (
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/provadev/prova/internal/evidence/record"
)

// HistoryRow is one run in the history of a record directory: its
// verdict, the failures, the RDMA peer coverage and the median of each of
// the three lines over the hosts that measured it.
type HistoryRow struct {
	RunID          string    `json:"run_id"`
	Runbook        string    `json:"runbook"`
	Started        time.Time `json:"started"`
	Status         string    `json:"status"`
	Verdict        string    `json:"verdict"`
	Hosts          int       `json:"hosts"`
	Failed         int       `json:"failed"`
	Warned         int       `json:"warned"`
	PeersConnected int       `json:"peers_connected"`
	PeersExpected  int       `json:"peers_expected"`
	LatRDMAUs      *float64  `json:"latency_rdma_us_median,omitempty"`
	LatTCPUs       *float64  `json:"latency_tcp_us_median,omitempty"`
	SoftRDMAPct    *float64  `json:"soft_rdma_pct_median,omitempty"`
	SoftTCPPct     *float64  `json:"soft_tcp_pct_median,omitempty"`
	BwRDMAMiBs     *float64  `json:"bandwidth_rdma_mib_s_median,omitempty"`
	BwTCPMiBs      *float64  `json:"bandwidth_tcp_mib_s_median,omitempty"`
}

// History reads every run record under root started at or after since
// (zero: all), oldest first. A record that cannot be read is an error
// naming it; an incomplete one is a row with verdict "incomplete".
func History(root string, since time.Time) ([]HistoryRow, error) {
	ids, err := record.Runs(root)
	if err != nil {
		return nil, fmt.Errorf("history: %w", err)
	}
	var rows []HistoryRow
	for _, id := range ids {
		rec, err := record.Load(filepath.Join(root, id))
		if err != nil {
			return nil, fmt.Errorf("history: %w", err)
		}
		if !since.IsZero() && rec.Meta.Started.Before(since) {
			continue
		}
		rows = append(rows, historyRow(Build(rec, Options{})))
	}
	return rows, nil
}

func historyRow(r *Report) HistoryRow {
	m := r.Run.Meta
	row := HistoryRow{RunID: m.RunID, Runbook: m.Runbook, Started: m.Started, Status: r.Run.Status, Verdict: r.Verdict(), Hosts: len(r.Hosts),
		Failed: r.Counts.Fail + r.Counts.StepErrors, Warned: r.Counts.Warn}
	for _, p := range r.Peers {
		row.PeersConnected += p.Connected
		row.PeersExpected += p.Expected
	}
	var lr, lt, sr, st, br, bt []float64
	for _, p := range r.Latency {
		lr, lt = appendV(lr, p.RDMAUs), appendV(lt, p.TCPUs)
	}
	for _, p := range r.CPU {
		sr, st = appendV(sr, p.SoftPctRDMA), appendV(st, p.SoftPctTCP)
	}
	for _, p := range r.Bandwidth {
		br, bt = appendV(br, p.RDMAMiBs), appendV(bt, p.TCPMiBs)
	}
	row.LatRDMAUs, row.LatTCPUs = medianOf(lr), medianOf(lt)
	row.SoftRDMAPct, row.SoftTCPPct = medianOf(sr), medianOf(st)
	row.BwRDMAMiBs, row.BwTCPMiBs = medianOf(br), medianOf(bt)
	return row
}

func appendV(l []float64, v *float64) []float64 {
	if v == nil {
		return l
	}
	return append(l, *v)
}

func medianOf(v []float64) *float64 {
	if len(v) == 0 {
		return nil
	}
	s := append([]float64(nil), v...)
	sort.Float64s(s)
	m := s[len(s)/2]
	if len(s)%2 == 0 {
		m = (s[len(s)/2-1] + s[len(s)/2]) / 2
	}
	return &m
}

func optNum(v *float64) string {
	if v == nil {
		return "-"
	}
	return fmtNum(*v)
}

// WriteHistory renders the history as Markdown (a table), HTML (the table
// and one trend chart per measurement) or JSON (the rows).
func WriteHistory(w io.Writer, rows []HistoryRow, f Format) error {
	switch f {
	case Markdown:
		return writeHistoryMD(w, rows)
	case HTML:
		return writeHistoryHTML(w, rows)
	case JSON:
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		if rows == nil {
			rows = []HistoryRow{}
		}
		return enc.Encode(map[string]any{"schema": "prova-history/1", "runs": rows})
	}
	return fmt.Errorf("history: format %s not supported (md, html, json)", f)
}

func peersCell(r HistoryRow) string {
	if r.PeersExpected == 0 {
		return "-"
	}
	return fmt.Sprintf("%d/%d", r.PeersConnected, r.PeersExpected)
}

func writeHistoryMD(w io.Writer, rows []HistoryRow) error {
	var b strings.Builder
	b.WriteString("# prova history\n\n")
	if len(rows) == 0 {
		b.WriteString("No run records.\n")
	} else {
		b.WriteString("| run | started | runbook | verdict | hosts | failed | warned | RDMA peers | latency RDMA / TCP (µs, median) | %soft RDMA / TCP (median) | bandwidth RDMA / TCP (MiB/s, median) |\n|---|---|---|---|---|---|---|---|---|---|---|\n")
		for _, r := range rows {
			fmt.Fprintf(&b, "| %s | %s | %s | %s | %d | %d | %d | %s | %s / %s | %s / %s | %s / %s |\n", r.RunID, r.Started.UTC().Format("2006-01-02 15:04"),
				md(r.Runbook), verdictMD(r.Verdict), r.Hosts, r.Failed, r.Warned, peersCell(r), optNum(r.LatRDMAUs), optNum(r.LatTCPUs),
				optNum(r.SoftRDMAPct), optNum(r.SoftTCPPct), optNum(r.BwRDMAMiBs), optNum(r.BwTCPMiBs))
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func writeHistoryHTML(w io.Writer, rows []HistoryRow) error {
	var b strings.Builder
	fmt.Fprintf(&b, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n<title>prova history</title>\n<style>\n%s\n.line{fill:none;stroke-width:2}.line.rdma{stroke:#2a6fb0}.line.tcp{stroke:#d9822b}.line.peers{stroke:#3a9a3a}.bar.peers{fill:#3a9a3a}.dot.fail{fill:#d00}.dot.incomplete{fill:#a60}.dot.pass{fill:#3a9a3a}\n</style>\n</head>\n<body>\n<h1>prova history</h1>\n", css)
	if len(rows) > 1 {
		b.WriteString("<h2>Trends</h2>\n<p class=\"note\">One chart per measurement, oldest run left; each dot is a run, coloured by its verdict (green pass, red fail, amber incomplete).</p>\n<div class=\"charts\">\n")
		var share []*float64
		var lr, lt, sr, st, br, bt []*float64
		for _, r := range rows {
			var s *float64
			if r.PeersExpected > 0 {
				v := float64(r.PeersConnected) / float64(r.PeersExpected) * 100
				s = &v
			}
			share = append(share, s)
			lr, lt, sr, st, br, bt = append(lr, r.LatRDMAUs), append(lt, r.LatTCPUs), append(sr, r.SoftRDMAPct), append(st, r.SoftTCPPct), append(br, r.BwRDMAMiBs), append(bt, r.BwTCPMiBs)
		}
		trendChart(&b, "trend-peers", "RDMA peers connected (% of expected)", "%", rows, []series{{"peers", "peers", share}})
		trendChart(&b, "trend-latency", "latency, median over nodes (µs)", " µs", rows, []series{{"RDMA", "rdma", lr}, {"TCP", "tcp", lt}})
		trendChart(&b, "trend-cpu", "%soft at full bandwidth, median (%)", "%", rows, []series{{"RDMA", "rdma", sr}, {"TCP", "tcp", st}})
		trendChart(&b, "trend-bandwidth", "large sequential bandwidth, median (MiB/s)", "", rows, []series{{"RDMA", "rdma", br}, {"TCP", "tcp", bt}})
		b.WriteString("</div>\n")
	}
	b.WriteString("<h2>Runs</h2>\n<table id=\"history\">\n<tr><th>run</th><th>started</th><th>runbook</th><th>verdict</th><th>hosts</th><th>failed</th><th>warned</th><th>RDMA peers</th><th>latency RDMA / TCP (µs)</th><th>%soft RDMA / TCP</th><th>bandwidth RDMA / TCP (MiB/s)</th></tr>\n")
	for _, r := range rows {
		fmt.Fprintf(&b, "<tr class=\"%s\"><td>%s</td><td>%s</td><td>%s</td><td class=\"v\">%s</td><td class=\"num\">%d</td><td class=\"num\">%d</td><td class=\"num\">%d</td><td class=\"num\">%s</td><td class=\"num\">%s / %s</td><td class=\"num\">%s / %s</td><td class=\"num\">%s / %s</td></tr>\n",
			esc(r.Verdict), esc(r.RunID), r.Started.UTC().Format("2006-01-02 15:04"), esc(r.Runbook), esc(r.Verdict), r.Hosts, r.Failed, r.Warned, peersCell(r),
			optNum(r.LatRDMAUs), optNum(r.LatTCPUs), optNum(r.SoftRDMAPct), optNum(r.SoftTCPPct), optNum(r.BwRDMAMiBs), optNum(r.BwTCPMiBs))
	}
	b.WriteString("</table>\n</body>\n</html>\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// trendChart draws one measurement over the runs, oldest left, with a
// dot per run coloured by its verdict.
func trendChart(b *strings.Builder, id, title, unit string, rows []HistoryRow, ss []series) {
	found := false
	for _, s := range ss {
		found = found || hasAny(s.values)
	}
	if !found {
		return
	}
	const w, h, left, top, plotH = 560, 220, 60, 40, 140
	plotWd := w - left - 20
	hi := 0.0
	for _, s := range ss {
		for _, v := range s.values {
			if v != nil && *v > hi {
				hi = *v
			}
		}
	}
	if hi == 0 {
		hi = 1
	}
	x := func(i int) float64 {
		if len(rows) == 1 {
			return float64(left + plotWd/2)
		}
		return float64(left) + float64(i)*float64(plotWd)/float64(len(rows)-1)
	}
	y := func(v float64) float64 { return float64(top+plotH) - v/hi*float64(plotH) }
	fmt.Fprintf(b, `<svg xmlns="http://www.w3.org/2000/svg" class="chart trend" id="%s" width="%d" height="%d" viewBox="0 0 %d %d" role="img"><title>%s</title>`+"\n", id, w, h, w, h, esc(title))
	fmt.Fprintf(b, `<text class="panel-title" x="%d" y="14">%s</text>`+"\n", left, esc(title))
	lx := left
	for _, s := range ss {
		fmt.Fprintf(b, `<rect class="bar %s" x="%d" y="22" width="10" height="10"/><text class="legend" x="%d" y="31">%s</text>`+"\n", s.class, lx, lx+14, esc(s.name))
		lx += 14 + 8*len(s.name) + 12
	}
	fmt.Fprintf(b, `<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="#999"/>`+"\n", left, top+plotH, left+plotWd, top+plotH)
	fmt.Fprintf(b, `<text class="label" x="%d" y="%d" text-anchor="end">%s%s</text><text class="label" x="%d" y="%d" text-anchor="end">0</text>`+"\n",
		left-4, top+4, fmtNum(hi), esc(unit), left-4, top+plotH)
	for _, s := range ss {
		var pts []string
		for i, v := range s.values {
			if v != nil {
				pts = append(pts, fmt.Sprintf("%.1f,%.1f", x(i), y(*v)))
			}
		}
		if len(pts) > 1 {
			fmt.Fprintf(b, `<polyline class="line %s" points="%s"/>`+"\n", s.class, strings.Join(pts, " "))
		}
		for i, v := range s.values {
			if v != nil {
				fmt.Fprintf(b, `<circle class="dot %s" cx="%.1f" cy="%.1f" r="3.5"><title>%s %s: %s%s (%s)</title></circle>`+"\n",
					esc(rows[i].Verdict), x(i), y(*v), esc(rows[i].RunID), esc(s.name), fmtNum(*v), esc(unit), esc(rows[i].Verdict))
			}
		}
	}
	fmt.Fprintf(b, `<text class="label" x="%d" y="%d">%s</text><text class="label" x="%d" y="%d" text-anchor="end">%s</text>`+"\n",
		left, top+plotH+16, rows[0].Started.UTC().Format("2006-01-02"), left+plotWd, top+plotH+16, rows[len(rows)-1].Started.UTC().Format("2006-01-02"))
	b.WriteString("</svg>\n")
}
