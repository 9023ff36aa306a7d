package report

import (
	"fmt"
	"html"
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
func barChart(b *strings.Builder, class, title string, cats []string, panels []panel) {
	nser := 0
	for _, p := range panels {
		nser = max(nser, len(p.series))
	}
	rowH := nser*(barH+2) + rowGap
	w := labelW + len(panels)*(panelW()+20)
	h := headerH + len(cats)*rowH + 10
	svgOpen(b, class, title, w, h)
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
		top := 0.0
		for _, s := range p.series {
			for _, v := range s.values {
				if v != nil && *v > top {
					top = *v
				}
			}
		}
		for i := range cats {
			y := headerH + i*rowH
			for si, s := range p.series {
				v := s.values[i]
				if v == nil {
					continue
				}
				bw := 0
				if top > 0 && *v > 0 {
					bw = max(1, int(*v/top*plotW+0.5))
				}
				by := y + si*(barH+2)
				fmt.Fprintf(b, `<rect class="bar %s" x="%d" y="%d" width="%d" height="%d"><title>%s %s: %s%s</title></rect>`+"\n",
					s.class, x0, by, bw, barH, esc(cats[i]), esc(s.name), fmtNum(*v), esc(p.unit))
				fmt.Fprintf(b, `<text class="value" x="%d" y="%d">%s%s</text>`+"\n", x0+bw+4, by+barH-1, fmtNum(*v), esc(p.unit))
			}
		}
	}
	b.WriteString("</svg>\n")
}

// peerChart draws connected peers over expected peers, per node.
func peerChart(b *strings.Builder, pts []PeerPoint) {
	rowH := barH + rowGap
	w := labelW + panelW() + 20
	h := headerH + len(pts)*rowH + 10
	svgOpen(b, "chart-peers", "RDMA peers connected / expected per node", w, h)
	fmt.Fprintf(b, `<text class="panel-title" x="%d" y="14">RDMA peers connected / expected</text>`+"\n", labelW)
	fmt.Fprintf(b, `<rect class="bar connected" x="%d" y="22" width="10" height="10"/><text class="legend" x="%d" y="31">connected</text>`, labelW, labelW+14)
	fmt.Fprintf(b, `<rect class="bar short" x="%d" y="22" width="10" height="10"/><text class="legend" x="%d" y="31">short of expected</text>`, labelW+110, labelW+124)
	fmt.Fprintf(b, `<rect class="bar expected" x="%d" y="22" width="10" height="10"/><text class="legend" x="%d" y="31">expected</text>`+"\n", labelW+260, labelW+274)
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
		class := "connected"
		if p.Connected < p.Expected {
			class = "short"
		}
		fmt.Fprintf(b, `<text class="label" x="%d" y="%d" text-anchor="end">%s</text>`+"\n", labelW-6, y+barH-1, esc(p.Host))
		fmt.Fprintf(b, `<rect class="bar expected" x="%d" y="%d" width="%d" height="%d"/>`+"\n", labelW, y, scale(p.Expected), barH)
		fmt.Fprintf(b, `<rect class="bar %s" x="%d" y="%d" width="%d" height="%d"><title>%s: %d of %d peers</title></rect>`+"\n",
			class, labelW, y, scale(p.Connected), barH, esc(p.Host), p.Connected, p.Expected)
		fmt.Fprintf(b, `<text class="value" x="%d" y="%d">%d/%d</text>`+"\n", labelW+scale(max(p.Expected, p.Connected))+4, y+barH-1, p.Connected, p.Expected)
	}
	b.WriteString("</svg>\n")
}

func svgOpen(b *strings.Builder, class, title string, w, h int) {
	fmt.Fprintf(b, `<svg xmlns="http://www.w3.org/2000/svg" class="chart %s" id="%s" width="%d" height="%d" viewBox="0 0 %d %d" role="img"><title>%s</title>`+"\n",
		class, class, w, h, w, h, esc(title))
}

func esc(s string) string { return html.EscapeString(s) }
