package report

import (
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/provadev/prova/internal/evidence/record"
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
	Line      string `json:"line"`
	Host      string `json:"host"`
	Step      string `json:"step"`
	Check     string `json:"check"`
	RDMA      string `json:"rdma,omitempty"`
	TCP       string `json:"tcp,omitempty"`
	Measured  string `json:"measured"`
	Threshold string `json:"threshold,omitempty"`
	Verdict   string `json:"verdict"`
	Message   string `json:"message,omitempty"`
	// Raw are the record paths of the raw outputs behind the line.
	Raw []string `json:"raw,omitempty"`
	// rawNames name each Raw entry: step and output ("bench.bench_rdma/mpstat -P ALL 1 10").
	rawNames []string
}

// lineOf says which line a check belongs to. A check named after a line
// ("latency", "cpu: %soft drop", "bandwidth_share") belongs to it whatever
// its step; checks of a compare step also count when their name mentions
// the line anywhere.
func lineOf(module, check string) string {
	n := strings.ToLower(strings.TrimSpace(check))
	for _, l := range []string{LineLatency, LineCPU, LineBandwidth} {
		if rest, ok := strings.CutPrefix(n, l); ok && (rest == "" || !isLetter(rest[0])) {
			return l
		}
	}
	if module != "compare" {
		return ""
	}
	switch {
	case strings.Contains(n, "bandwidth"), strings.Contains(n, "bw"):
		return LineBandwidth
	case strings.Contains(n, "lat"):
		return LineLatency
	case strings.Contains(n, "cpu"), strings.Contains(n, "soft"), strings.Contains(n, "busy"):
		return LineCPU
	}
	return ""
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// rawHints pick a line's raw outputs by name.
var rawHints = map[string][]string{
	LineLatency:   {"_lat", "lat_", "latency"},
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
				refs := r.rawFor(s.Step, h, l)
				line := Line{Line: l, Host: h, Step: s.Step, Check: c.Name, RDMA: rdma, TCP: tcp,
					Measured: c.Measured, Threshold: c.Threshold, Verdict: v, Message: c.Message}
				for _, ref := range refs {
					line.Raw = append(line.Raw, ref.path)
					line.rawNames = append(line.rawNames, ref.step+"/"+ref.name)
				}
				out = append(out, line)
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
		isBW := func(k string) bool { return strings.Contains(k, "bw") || strings.Contains(k, "bandwidth") }
		add(func(k string) bool { return isBW(k) && !strings.Contains(k, "share") }, func(k string, v float64) string { return fmtNum(v) + unitOf(k) })
		add(func(k string) bool { return isBW(k) && strings.Contains(k, "share") }, func(_ string, v float64) string {
			if v <= 1.5 {
				return fmtNum(v*100) + "% of line rate"
			}
			return fmtNum(v) + "% of line rate"
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
	for _, u := range [][2]string{{"_mib_s", " MiB/s"}, {"_gib_s", " GiB/s"}, {"_mibs", " MiB/s"}, {"_gibs", " GiB/s"},
		{"_gbps", " Gb/s"}, {"_us", " µs"}, {"_ms", " ms"}, {"_pct", "%"}} {
		if strings.HasSuffix(a, u[0]) || strings.Contains(a, u[0]+"_") {
			return u[1]
		}
	}
	return ""
}

// rawFor picks a line's raw outputs on a host: those of the check's own
// step whose output name carries a hint of the line; else those of any
// step on the host (the benchmarks a compare step read, whose evidence is
// named after the command: "ib_write_lat ...", "mpstat ...", "elbencho
// ..."); else the own step's stdout.
func (r *Report) rawFor(step, host, line string) []rawRef {
	match := func(st string, raw map[string]string) []rawRef {
		var out []rawRef
		for _, k := range keys(raw) {
			if k == "stdout" || k == "stderr" {
				continue
			}
			lk := strings.ToLower(k)
			for _, h := range rawHints[line] {
				if strings.Contains(lk, h) || strings.HasPrefix(lk, strings.Trim(h, "_")) {
					out = append(out, rawRef{step: st, name: k, path: raw[k]})
					break
				}
			}
		}
		return out
	}
	var own map[string]string
	var out []rawRef
	for _, s := range r.Run.Steps {
		if s.Step == step {
			own = s.Hosts[host].Raw
		}
	}
	if out = match(step, own); len(out) == 0 {
		hostResults(r.Run, host, func(s record.Step, hr record.HostResult) { out = append(out, match(s.Step, hr.Raw)...) })
	}
	if len(out) == 0 && own["stdout"] != "" {
		out = append(out, rawRef{step: step, name: "stdout", path: own["stdout"]})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].step != out[j].step {
			return out[i].step < out[j].step
		}
		return out[i].name < out[j].name
	})
	if len(out) > maxRaw {
		out = out[:maxRaw]
	}
	return out
}

// rawRef is one raw output of a host-step.
type rawRef struct{ step, name, path string }

// maxRaw bounds the raw outputs listed per line and host.
const maxRaw = 6

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

// fmtNum prints a figure: whole numbers from 1000 up, else 4 significant
// digits.
func fmtNum(v float64) string {
	if math.Abs(v) >= 1000 {
		return strconv.FormatFloat(math.Round(v), 'f', -1, 64)
	}
	return strconv.FormatFloat(v, 'g', 4, 64)
}

// hostResults calls f for every finished result of host h, in run order.
func hostResults(rec *record.Record, h string, f func(s record.Step, hr record.HostResult)) {
	for _, s := range rec.Steps {
		if hr, ok := s.Hosts[h]; ok && hr.Status != record.Unfinished {
			f(s, hr)
		}
	}
}
