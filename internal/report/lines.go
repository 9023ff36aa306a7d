package report

import (
	"sort"
	"strconv"
	"strings"

	"github.com/provadev/prova/internal/record"
)

// The three acceptance lines.
const (
	LineLatency   = "latency"
	LineCPU       = "cpu"
	LineBandwidth = "bandwidth"
)

// Line is one of the three acceptance lines on one host: the check that
// judged it, the RDMA and TCP figures side by side, and the raw outputs
// behind them.
type Line struct {
	Line      string   `json:"line"`
	Host      string   `json:"host"`
	Step      string   `json:"step"`
	Check     string   `json:"check"`
	RDMA      string   `json:"rdma,omitempty"`
	TCP       string   `json:"tcp,omitempty"`
	Measured  string   `json:"measured"`
	Threshold string   `json:"threshold,omitempty"`
	Verdict   string   `json:"verdict"`
	Message   string   `json:"message,omitempty"`
	Raw       []string `json:"raw,omitempty"`
}

// lineOf says which line a check belongs to. Checks of a compare step
// count when their name mentions the line; checks of other steps only when
// named after it ("latency", "cpu 1", "bandwidth_share").
func lineOf(module, check string) string {
	n := strings.ToLower(strings.TrimSpace(check))
	if module != "compare" {
		for _, l := range []string{LineLatency, LineCPU, LineBandwidth} {
			if n == l || strings.HasPrefix(n, l+" ") || strings.HasPrefix(n, l+"_") {
				return l
			}
		}
		return ""
	}
	switch {
	case strings.Contains(n, "lat"):
		return LineLatency
	case strings.Contains(n, "cpu"), strings.Contains(n, "soft"), strings.Contains(n, "busy"):
		return LineCPU
	case strings.Contains(n, "bandwidth"), strings.Contains(n, "bw"):
		return LineBandwidth
	}
	return ""
}

// rawHints pick a line's raw outputs by name.
var rawHints = map[string][]string{
	LineLatency:   {"lat"},
	LineCPU:       {"mpstat", "cpu", "soft"},
	LineBandwidth: {"elbencho", "bw", "bandwidth", "fio", "gdsio"},
}

func (r *Report) threeLines() []Line {
	verdicts := map[[3]string]string{}
	for _, o := range r.Assertions {
		verdicts[[3]string{o.Step, o.Host, o.Name}] = o.Verdict
	}
	var out []Line
	for _, s := range r.Run.Steps {
		for _, h := range orderHosts(keys(s.Hosts), r.Hosts) {
			hr := s.Hosts[h]
			for _, c := range hr.Checks {
				l := lineOf(s.Module, c.Name)
				if l == "" {
					continue
				}
				v := c.Verdict
				if w, ok := verdicts[[3]string{s.Step, h, c.Name}]; ok {
					v = w
				}
				rdma, tcp := sideBySide(hr.Result, l)
				out = append(out, Line{Line: l, Host: h, Step: s.Step, Check: c.Name, RDMA: rdma, TCP: tcp,
					Measured: c.Measured, Threshold: c.Threshold, Verdict: v, Message: c.Message, Raw: rawFor(hr.Raw, l)})
			}
		}
	}
	return out
}

// sideBySide formats a line's RDMA and TCP figures from a result.
func sideBySide(res map[string]any, line string) (rdma, tcp string) {
	var parts [2][]string
	add := func(match func(string) bool, format func(string, float64) string) {
		for i, tr := range []string{"rdma", "tcp"} {
			if k, v, ok := findAttr(res, tr, match); ok {
				parts[i] = append(parts[i], format(k, v))
			}
		}
	}
	switch line {
	case LineLatency:
		add(func(k string) bool { return strings.Contains(k, "lat") && !strings.Contains(k, "ratio") },
			func(k string, v float64) string { return fmtNum(v) + unitOf(k) })
	case LineCPU:
		add(func(k string) bool { return strings.Contains(k, "soft") }, func(_ string, v float64) string { return "%soft " + fmtNum(v) + "%" })
		add(func(k string) bool { return strings.Contains(k, "busy") }, func(_ string, v float64) string { return fmtNum(v) + " busy cores" })
	case LineBandwidth:
		add(func(k string) bool { return strings.Contains(k, "bw") || strings.Contains(k, "bandwidth") },
			func(k string, v float64) string {
				if strings.Contains(k, "share") && v <= 1.5 {
					return fmtNum(v*100) + "% of line rate"
				}
				return fmtNum(v) + unitOf(k)
			})
	}
	return strings.Join(parts[0], ", "), strings.Join(parts[1], ", ")
}

// findAttr finds the first numeric attribute (by name) that names the
// transport tr and satisfies match.
func findAttr(res map[string]any, tr string, match func(string) bool) (string, float64, bool) {
	for _, k := range keys(res) {
		lk := strings.ToLower(k)
		if !strings.Contains(lk, tr) || !match(lk) {
			continue
		}
		if v, ok := number(res[k]); ok {
			return k, v, true
		}
	}
	return "", 0, false
}

func unitOf(attr string) string {
	a := strings.ToLower(attr)
	for suffix, unit := range map[string]string{"_us": " µs", "_ms": " ms", "_gbps": " Gb/s", "_gibs": " GiB/s", "_mibs": " MiB/s", "_pct": "%"} {
		if strings.HasSuffix(a, suffix) || strings.Contains(a, suffix+"_") {
			return unit
		}
	}
	return ""
}

func rawFor(raw map[string]string, line string) []string {
	var out []string
	for _, k := range keys(raw) {
		lk := strings.ToLower(k)
		for _, h := range rawHints[line] {
			if strings.Contains(lk, h) {
				out = append(out, raw[k])
				break
			}
		}
	}
	if len(out) == 0 && raw["stdout"] != "" {
		out = append(out, raw["stdout"])
	}
	sort.Strings(out)
	return out
}

func number(v any) (float64, bool) {
	switch x := v.(type) {
	case float64:
		return x, true
	case int:
		return float64(x), true
	case int64:
		return float64(x), true
	}
	return 0, false
}

func fmtNum(v float64) string { return strconv.FormatFloat(v, 'g', 4, 64) }

// hostResults calls f for every finished result of host h, in run order.
func hostResults(rec *record.Record, h string, f func(s record.Step, hr record.HostResult)) {
	for _, s := range rec.Steps {
		if hr, ok := s.Hosts[h]; ok && hr.Status != record.Unfinished {
			f(s, hr)
		}
	}
}
