package compare

import (
	"math"
	"slices"

	"github.com/zclconf/go-cty/cty"

	"github.com/provadev/prova/parse/bench"
)

// opt is a measurement that may be missing.
type opt struct {
	v  float64
	ok bool
}

func some(v float64) opt { return opt{v: v, ok: !math.IsNaN(v) && !math.IsInf(v, 0)} }

// get walks attributes of v; a missing, null or unknown value is missing.
// When v is a list of results (the same benchmark in several passes), the
// value is the median over the passes that have it.
func get(v cty.Value, path ...string) opt {
	if vs, ok := passes(v); ok {
		var xs []float64
		for _, e := range vs {
			if o := get(e, path...); o.ok {
				xs = append(xs, o.v)
			}
		}
		if len(xs) == 0 {
			return opt{}
		}
		return some(median(xs))
	}
	for _, n := range path {
		v, _ = v.UnmarkDeep()
		if v == cty.NilVal || v.IsNull() || !v.IsKnown() {
			return opt{}
		}
		switch t := v.Type(); {
		case t.IsObjectType() && t.HasAttribute(n):
			v = v.GetAttr(n)
		case t.IsMapType() && v.HasIndex(cty.StringVal(n)).True():
			v = v.Index(cty.StringVal(n))
		default:
			return opt{}
		}
	}
	v, _ = v.UnmarkDeep()
	if v.IsNull() || !v.IsKnown() || !v.Type().Equals(cty.Number) {
		return opt{}
	}
	f, _ := v.AsBigFloat().Float64()
	return some(f)
}

// passes returns the elements of a list or tuple of results.
func passes(v cty.Value) ([]cty.Value, bool) {
	v, _ = v.UnmarkDeep()
	if v == cty.NilVal || v.IsNull() || !v.IsKnown() {
		return nil, false
	}
	if t := v.Type(); t.IsTupleType() || t.IsListType() {
		return v.AsValueSlice(), true
	}
	return nil, false
}

func median(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	if n := len(s); n%2 == 1 {
		return s[n/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// passSpread is (max - min) / median of IOPS over the passes of v, in
// percent; missing for a single result.
func passSpread(v cty.Value) opt {
	vs, ok := passes(v)
	if !ok || len(vs) < 2 {
		return opt{}
	}
	var xs []float64
	for _, e := range vs {
		if o := get(e, "iops"); o.ok {
			xs = append(xs, o.v)
		}
	}
	if len(xs) < 2 {
		return opt{}
	}
	m := median(xs)
	if m <= 0 {
		return opt{}
	}
	return some((slices.Max(xs) - slices.Min(xs)) / m * 100)
}

func first(os ...opt) opt {
	for _, o := range os {
		if o.ok {
			return o
		}
	}
	return opt{}
}

func present(v cty.Value) bool {
	v, _ = v.UnmarkDeep()
	return v != cty.NilVal && !v.IsNull() && v.IsKnown()
}

// side is what one transport's results give, read by the profile's method.
type side struct {
	lat, latP99, latInFlight opt
	latStat                  string // "p50" or "avg": the statistic lat is
	latRun                   string // the argument lat comes from
	iops, iopsInFlight       opt    // the high-queue-depth small-block run
	soft, kernel, busy       opt    // CPU of cpuRun
	cpuRun                   string
	cpuGBps                  opt // GB/s (10^9 B) moved by cpuRun, for per-GB/s figures
	mib                      opt // sequential bandwidth
	hottest                  map[string]opt
	spread                   map[string]opt
}

// results are one transport's step results by role.
type results struct {
	name           string // "rdma" or "tcp"
	lat, iops, seq cty.Value
}

func gbpsToMiB(o opt) opt {
	if !o.ok {
		return o
	}
	return some(bench.GbpsToMiBps(o.v))
}

func mibOf(v cty.Value) opt {
	if !present(v) {
		return opt{}
	}
	return first(get(v, "mib_s"), gbpsToMiB(get(v, "gbps")))
}

func readSide(r results, th thresholds) side {
	s := side{hottest: map[string]opt{}, spread: map[string]opt{}}
	latV, latName := r.iops, r.name
	if th.LatencyQD1 && present(r.lat) {
		latV, latName = r.lat, "lat_"+r.name
	}
	s.latRun = latName
	p50, avg := get(latV, "lat_p50_us"), get(latV, "lat_avg_us")
	switch {
	case th.LatencyStat == "p50" && p50.ok:
		s.lat, s.latStat = p50, "p50"
	case avg.ok:
		s.lat, s.latStat = avg, "avg"
	default:
		s.lat, s.latStat = p50, "p50"
	}
	s.latP99 = get(latV, "lat_p99_us")
	s.latInFlight = get(latV, "in_flight")
	s.iops, s.iopsInFlight = get(r.iops, "iops"), get(r.iops, "in_flight")

	cpuV, cpuName := r.iops, r.name
	if th.CPUAtLineRate {
		cpuV, cpuName = r.seq, "seq_"+r.name
	}
	s.cpuRun = cpuName
	s.soft = get(cpuV, "cpu", "soft_pct")
	s.kernel = first(get(cpuV, "cpu", "kernel_pct"), sum(get(cpuV, "cpu", "soft_pct"), get(cpuV, "cpu", "sys_pct"), get(cpuV, "cpu", "irq_pct")))
	s.busy = get(cpuV, "cpu", "busy_cores")
	if m := mibOf(cpuV); m.ok {
		s.cpuGBps = some(m.v * (1 << 20) / 1e9)
	}
	s.mib = mibOf(r.seq)
	for n, v := range map[string]cty.Value{"lat_" + r.name: r.lat, r.name: r.iops, "seq_" + r.name: r.seq} {
		if !present(v) {
			continue
		}
		s.hottest[n] = get(v, "cpu", "hottest_core_pct")
		s.spread[n] = get(v, "spread_pct")
		if ps := passSpread(v); ps.ok {
			s.spread[n+" across passes"] = ps
		}
	}
	return s
}

func sum(os ...opt) opt {
	t := 0.0
	for _, o := range os {
		if !o.ok {
			return opt{}
		}
		t += o.v
	}
	return some(t)
}

// cpuFigure is the CPU metric the profile judges.
func (s side) cpuFigure(th thresholds) opt {
	if th.CPUMetric == "kernel" {
		return s.kernel
	}
	return s.soft
}

// perGBps divides o by the GB/s the CPU run moved, when the profile
// judges at line rate and the bandwidth is known.
func (s side) perGBps(o opt, th thresholds) opt {
	if !th.CPUAtLineRate || !o.ok || !s.cpuGBps.ok || s.cpuGBps.v <= 0 {
		return o
	}
	return some(o.v / s.cpuGBps.v)
}
