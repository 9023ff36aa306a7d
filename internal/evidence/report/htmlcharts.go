package report

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// htmlCharts draws one chart per measurement: latency per measure (an
// NVMe-oF 4K read and an ib_write_lat pair latency never share an axis),
// CPU with the threshold the RDMA bar must stay under, bandwidth with the
// 90 % reference line, and RDMA peers with the culprit on top. At scale
// each chart draws the nodes that are not clean first, at most
// maxChartRows of them.
func (r *Report) htmlCharts(b *strings.Builder) {
	if len(r.Latency)+len(r.CPU)+len(r.Bandwidth)+len(r.Peers) == 0 {
		return
	}
	bad := r.notCleanHosts()
	b.WriteString("<h2>Charts</h2>\n<div class=\"charts\">\n")
	if len(r.Peers) > 0 {
		b.WriteString("<div class=\"chart-box\">\n")
		peerChart(b, r.Peers)
		b.WriteString("</div>\n")
	}
	var measures []string
	byMeasure := map[string][]LatencyPoint{}
	for _, p := range r.Latency {
		if _, ok := byMeasure[p.Measure]; !ok {
			measures = append(measures, p.Measure)
		}
		byMeasure[p.Measure] = append(byMeasure[p.Measure], p)
	}
	for i, m := range measures {
		pts := pickRows(byMeasure[m], func(p LatencyPoint) string { return p.Host }, bad)
		var hosts []string
		var rdma, tcp, limits []*float64
		for _, p := range pts.rows {
			hosts, rdma, tcp = append(hosts, p.Host), append(rdma, p.RDMAUs), append(tcp, p.TCPUs)
			limits = append(limits, latencyLimit(p))
		}
		id := "chart-latency"
		if i > 0 {
			id = fmt.Sprintf("chart-latency-%d", i+1)
		}
		title := "latency (µs)"
		if m != "" {
			title += ": " + m
		}
		chart(b, "chart-latency", id, "Latency per node, RDMA vs TCP (µs), "+orDash(m), hosts, []panel{{title: title, unit: " µs",
			series: []series{{"RDMA", "rdma", rdma}, {"TCP", "tcp", tcp}}, limits: limits}}, pts)
	}
	if len(r.CPU) > 0 {
		pts := pickRows(r.CPU, func(p CPUPoint) string { return p.Host }, bad)
		var hosts []string
		var sr, st, br, bt, limits []*float64
		for _, p := range pts.rows {
			hosts = append(hosts, p.Host)
			sr, st, br, bt = append(sr, p.SoftPctRDMA), append(st, p.SoftPctTCP), append(br, p.BusyCoresRDMA), append(bt, p.BusyCoresTCP)
			limits = append(limits, softLimit(p))
		}
		chart(b, "chart-cpu", "chart-cpu", "CPU per node at full bandwidth: %soft and busy cores, RDMA vs TCP", hosts, []panel{
			{title: "%soft", unit: "%", series: []series{{"RDMA", "rdma", sr}, {"TCP", "tcp", st}}, limits: limits},
			{title: "busy cores", unit: "", series: []series{{"RDMA", "rdma", br}, {"TCP", "tcp", bt}}},
		}, pts)
	}
	if len(r.Bandwidth) > 0 {
		pts := pickRows(r.Bandwidth, func(p BandwidthPoint) string { return p.Host }, bad)
		var hosts []string
		var mr, mt, sr, st []*float64
		pct := func(v *float64) *float64 {
			if v == nil {
				return nil
			}
			x := *v
			if x <= 1.5 {
				x *= 100
			}
			return &x
		}
		for _, p := range pts.rows {
			hosts = append(hosts, p.Host)
			mr, mt, sr, st = append(mr, p.RDMAMiBs), append(mt, p.TCPMiBs), append(sr, pct(p.RDMAShare)), append(st, pct(p.TCPShare))
		}
		ninety := 90.0
		panels := []panel{{title: "large sequential (MiB/s)", unit: "", series: []series{{"RDMA", "rdma", mr}, {"TCP", "tcp", mt}}}}
		if hasAny(sr) || hasAny(st) {
			panels = append(panels, panel{title: "share of line rate (%)", unit: "%", series: []series{{"RDMA", "rdma", sr}, {"TCP", "tcp", st}},
				ref: &ninety, refLabel: "90 % (reference)"})
		}
		chart(b, "chart-bandwidth", "chart-bandwidth", "Bandwidth per node, RDMA vs TCP: a reference, not a criterion", hosts, panels, pts)
	}
	b.WriteString("</div>\n")
}

// chart draws one bar chart in its box, leaving out panels without data,
// with the note on the nodes left out under it.
func chart[T any](b *strings.Builder, class, id, title string, hosts []string, panels []panel, p picked[T]) {
	var keep []panel
	for _, pn := range panels {
		for _, s := range pn.series {
			if hasAny(s.values) {
				keep = append(keep, pn)
				break
			}
		}
	}
	if len(keep) == 0 {
		return
	}
	b.WriteString("<div class=\"chart-box\">\n")
	barChart(b, class, id, title, hosts, keep)
	p.note(b)
	b.WriteString("</div>\n")
}

// notCleanHosts are the hosts with a failed or warned assertion or a step
// error.
func (r *Report) notCleanHosts() map[string]bool {
	bad := map[string]bool{}
	for _, o := range r.Assertions {
		if o.Verdict == "fail" || o.Verdict == "warn" {
			bad[o.Host] = true
		}
	}
	for _, e := range r.StepErrors {
		bad[e.Host] = true
	}
	return bad
}

type picked[T any] struct {
	rows   []T
	hidden int
}

func (p picked[T]) note(b *strings.Builder) {
	if p.hidden > 0 {
		fmt.Fprintf(b, "<p class=\"note chart-note\">%d more clean node(s) not drawn.</p>\n", p.hidden)
	}
}

// pickRows keeps at most maxChartRows points: the not-clean hosts first,
// then the others, each in report order.
func pickRows[T any](pts []T, host func(T) string, bad map[string]bool) picked[T] {
	if len(pts) <= maxChartRows {
		return picked[T]{rows: pts}
	}
	var first, rest []T
	for _, p := range pts {
		if bad[host(p)] {
			first = append(first, p)
		} else {
			rest = append(rest, p)
		}
	}
	rows := append(first, rest...)
	return picked[T]{rows: rows[:maxChartRows], hidden: len(rows) - maxChartRows}
}

var numberRE = regexp.MustCompile(`[0-9]+(?:\.[0-9]+)?`)

func firstNumber(s string) (float64, bool) {
	m := numberRE.FindString(s)
	if m == "" {
		return 0, false
	}
	v, err := strconv.ParseFloat(m, 64)
	return v, err == nil
}

// latencyLimit is where the RDMA latency must stay under: an absolute
// threshold in µs, or a ratio of TCP's latency ("<= 0.50").
func latencyLimit(p LatencyPoint) *float64 {
	v, ok := firstNumber(p.Threshold)
	if !ok {
		return nil
	}
	t := strings.ToLower(p.Threshold)
	switch {
	case strings.Contains(t, "µs") || strings.Contains(t, "us"):
		return &v
	case v <= 1.5 && p.TCPUs != nil:
		l := v * *p.TCPUs
		return &l
	}
	return nil
}

// softLimit is the %soft the RDMA run must stay under: "<= X" as is,
// ">= X %" as a minimum drop from TCP's %soft.
func softLimit(p CPUPoint) *float64 {
	v, ok := firstNumber(p.Threshold)
	if !ok {
		return nil
	}
	t := strings.TrimSpace(p.Threshold)
	switch {
	case strings.HasPrefix(t, "<"):
		return &v
	case strings.HasPrefix(t, ">") && p.SoftPctTCP != nil && v < 100:
		l := *p.SoftPctTCP * (1 - v/100)
		return &l
	}
	return nil
}
