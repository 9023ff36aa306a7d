package report

import (
	"fmt"
	"html"
	"sort"
	"strings"
)

// Inline SVG bar charts: one row per node, horizontal bars, values
// printed at the bar ends. No script, no external resource.

type series struct {
	name, class string
	values      []*float64 // one per category
}

type panel struct {
	title, unit string
	series      []series
	// limits, one per category (nil: none), draw the threshold the first
	// series must stay under (or reach) as a dark tick across its row.
	limits []*float64
	// ref, when set, is a reference value drawn as a dashed line over the
	// whole panel (bandwidth's 90 % of line rate).
	ref *float64
	// refLabel names ref in the legend.
	refLabel string
}

const (
	labelW  = 120
	plotW   = 260
	valueW  = 70
	barH    = 11
	rowGap  = 8
	headerH = 40
)

func panelW() int { return plotW + valueW }

// barChart draws panels side by side, one row group per category.
func barChart(b *strings.Builder, class, id, title string, cats []string, panels []panel) {
	nser := 0
	for _, p := range panels {
		nser = max(nser, len(p.series))
	}
	rowH := nser*(barH+2) + rowGap
	w := labelW + len(panels)*(panelW()+20)
	h := headerH + len(cats)*rowH + 10
	svgOpenID(b, class, id, title, w, h)
	for i, c := range cats {
		y := headerH + i*rowH
		fmt.Fprintf(b, `<text class="label" x="%d" y="%d" text-anchor="end">%s</text>`+"\n", labelW-6, y+nser*(barH+2)/2+4, esc(c))
	}
	for pi, p := range panels {
		x0 := labelW + pi*(panelW()+20)
		fmt.Fprintf(b, `<text class="panel-title" x="%d" y="14">%s</text>`+"\n", x0, esc(p.title))
		lx := x0
		for _, s := range p.series {
			fmt.Fprintf(b, `<rect class="bar %s" x="%d" y="22" width="10" height="10"/><text class="legend" x="%d" y="31">%s</text>`+"\n", s.class, lx, lx+14, esc(s.name))
			lx += 14 + 8*len(s.name) + 12
		}
		if hasAny(p.limits) {
			fmt.Fprintf(b, `<rect class="limit" x="%d" y="21" width="3" height="12"/><text class="legend" x="%d" y="31">threshold</text>`+"\n", lx, lx+8)
			lx += 90
		}
		if p.ref != nil {
			fmt.Fprintf(b, `<line class="ref" x1="%d" y1="27" x2="%d" y2="27"/><text class="legend" x="%d" y="31">%s</text>`+"\n", lx, lx+12, lx+16, esc(p.refLabel))
		}
		top := 0.0
		for _, s := range p.series {
			for _, v := range s.values {
				if v != nil && *v > top {
					top = *v
				}
			}
		}
		for _, v := range append(p.limits, p.ref) {
			if v != nil && *v > top {
				top = *v
			}
		}
		scale := func(v float64) int {
			if top <= 0 || v <= 0 {
				return 0
			}
			return max(1, int(v/top*plotW+0.5))
		}
		if p.ref != nil {
			x := x0 + scale(*p.ref)
			fmt.Fprintf(b, `<line class="ref" x1="%d" y1="%d" x2="%d" y2="%d"><title>%s</title></line>`+"\n", x, headerH-4, x, h-8, esc(p.refLabel))
		}
		for i := range cats {
			y := headerH + i*rowH
			for si, s := range p.series {
				v := s.values[i]
				if v == nil {
					continue
				}
				bw := scale(*v)
				by := y + si*(barH+2)
				fmt.Fprintf(b, `<rect class="bar %s" x="%d" y="%d" width="%d" height="%d"><title>%s %s: %s%s</title></rect>`+"\n",
					s.class, x0, by, bw, barH, esc(cats[i]), esc(s.name), fmtNum(*v), esc(p.unit))
				fmt.Fprintf(b, `<text class="value" x="%d" y="%d">%s%s</text>`+"\n", x0+bw+4, by+barH-1, fmtNum(*v), esc(p.unit))
			}
			if i < len(p.limits) && p.limits[i] != nil {
				x := x0 + scale(*p.limits[i])
				fmt.Fprintf(b, `<rect class="limit" x="%d" y="%d" width="3" height="%d"><title>%s threshold: %s%s</title></rect>`+"\n",
					x-1, y-2, barH+4, esc(cats[i]), fmtNum(*p.limits[i]), esc(p.unit))
			}
		}
	}
	b.WriteString("</svg>\n")
}

func hasAny(vs []*float64) bool {
	for _, v := range vs {
		if v != nil {
			return true
		}
	}
	return false
}

// peerChart draws, per node, the RDMA peers connected (green) and the
// peers missing (red, strong when at least half are missing), worst node
// first, so that the node nobody reaches is the longest red bar. At most
// maxChartRows nodes are drawn; the rest are counted under the chart.
func peerChart(b *strings.Builder, pts []PeerPoint) {
	pts = append([]PeerPoint(nil), pts...)
	missing := func(p PeerPoint) int { return max(0, p.Expected-p.Connected) }
	share := func(p PeerPoint) float64 {
		if p.Expected == 0 {
			return 0
		}
		return float64(missing(p)) / float64(p.Expected)
	}
	sort.SliceStable(pts, func(i, j int) bool { return share(pts[i]) > share(pts[j]) })
	hidden := 0
	if len(pts) > maxChartRows {
		hidden = len(pts) - maxChartRows
		pts = pts[:maxChartRows]
	}
	rowH := barH + rowGap
	w := labelW + panelW() + 20
	h := headerH + len(pts)*rowH + 10
	svgOpen(b, "chart-peers", "RDMA peers per node: connected and missing, worst first", w, h)
	fmt.Fprintf(b, `<text class="panel-title" x="%d" y="14">RDMA peers per node, worst first</text>`+"\n", labelW)
	fmt.Fprintf(b, `<rect class="bar missing" x="%d" y="22" width="10" height="10"/><text class="legend" x="%d" y="31">missing (half or more)</text>`, labelW, labelW+14)
	fmt.Fprintf(b, `<rect class="bar missing-few" x="%d" y="22" width="10" height="10"/><text class="legend" x="%d" y="31">missing (fewer)</text>`, labelW+150, labelW+164)
	fmt.Fprintf(b, `<rect class="bar connected" x="%d" y="22" width="10" height="10"/><text class="legend" x="%d" y="31">connected</text>`+"\n", labelW+260, labelW+274)
	top := 0
	for _, p := range pts {
		top = max(top, p.Expected, p.Connected)
	}
	scale := func(n int) int {
		if top == 0 {
			return 0
		}
		return int(float64(n)/float64(top)*plotW + 0.5)
	}
	for i, p := range pts {
		y := headerH + i*rowH
		fmt.Fprintf(b, `<text class="label" x="%d" y="%d" text-anchor="end">%s</text>`+"\n", labelW-6, y+barH-1, esc(p.Host))
		cw := scale(p.Connected)
		fmt.Fprintf(b, `<rect class="bar connected" x="%d" y="%d" width="%d" height="%d"><title>%s: %d of %d peers</title></rect>`+"\n",
			labelW, y, cw, barH, esc(p.Host), p.Connected, p.Expected)
		if m := missing(p); m > 0 {
			class := "missing-few"
			if share(p) >= 0.5 {
				class = "missing"
			}
			fmt.Fprintf(b, `<rect class="bar %s" x="%d" y="%d" width="%d" height="%d"><title>%s: %d peer(s) missing</title></rect>`+"\n",
				class, labelW+cw, y, max(2, scale(m)), barH, esc(p.Host), m)
		}
		fmt.Fprintf(b, `<text class="value" x="%d" y="%d">%d/%d</text>`+"\n", labelW+scale(max(p.Expected, p.Connected))+4, y+barH-1, p.Connected, p.Expected)
	}
	if hidden > 0 {
		fmt.Fprintf(b, `<text class="note" x="%d" y="%d">%d more node(s), all peers connected or fewer missing, not drawn</text>`+"\n", labelW, h-2, hidden)
	}
	b.WriteString("</svg>\n")
}

// maxChartRows bounds the nodes one chart draws.
const maxChartRows = 24

func svgOpen(b *strings.Builder, class, title string, w, h int) {
	svgOpenID(b, class, class, title, w, h)
}

func svgOpenID(b *strings.Builder, class, id, title string, w, h int) {
	fmt.Fprintf(b, `<svg xmlns="http://www.w3.org/2000/svg" class="chart %s" id="%s" width="%d" height="%d" viewBox="0 0 %d %d" role="img"><title>%s</title>`+"\n",
		class, id, w, h, w, h, esc(title))
}

func esc(s string) string { return html.EscapeString(s) }
