package baseline

import (
	"math"
	"sort"
	"strconv"

	"github.com/provadev/prova/internal/evidence/record"
)

// Verdicts of a comparison row.
const (
	Pass = "pass" // within tolerance, or better
	Fail = "fail" // a regression beyond the tolerance
	Info = "info" // no known direction: shown, not judged
)

// Row compares one metric on one host (or the cluster) with the baseline.
type Row struct {
	Metric string `json:"metric"`
	Kind   string `json:"kind,omitempty"`
	Better Better `json:"better,omitempty"`
	// Host is empty in cluster rows.
	Host string `json:"host,omitempty"`
	// New marks a host the baseline has not seen: Baseline is then the
	// baseline's cluster figure.
	New      bool    `json:"new,omitempty"`
	Baseline float64 `json:"baseline"`
	Current  float64 `json:"current"`
	Change   float64 `json:"change"`
	// ChangePct is the change in percent of the baseline; nil when the
	// baseline is 0.
	ChangePct *float64 `json:"change_pct,omitempty"`
	// TolerancePct is the regression allowed, in percent.
	TolerancePct float64 `json:"tolerance_pct"`
	Verdict      string  `json:"verdict"`
}

// Comparison is a run set against its baseline.
type Comparison struct {
	// Baseline names the baseline: its run ID, or the file it came from.
	Baseline string `json:"baseline"`
	Profile  string `json:"profile"`
	// Hosts has one row per metric and host, in run order then host order.
	Hosts []Row `json:"hosts"`
	// Cluster has one row per metric: the median over nodes, now and then.
	Cluster []Row `json:"cluster"`
	// New are hosts of this run the baseline has not seen; Missing are the
	// baseline's hosts absent from this run.
	New     []string `json:"new_hosts"`
	Missing []string `json:"missing_hosts"`
	// Failed counts failed rows, host and cluster.
	Failed int `json:"failed"`
}

// Compare sets current against base with the profile t.
func Compare(current, base *record.Record, t Tolerances) *Comparison {
	c := &Comparison{Baseline: Name(base), Profile: t.Name, Hosts: []Row{}, Cluster: []Row{}, New: []string{}, Missing: []string{}}
	now, then := index(Metrics(current, t)), index(Metrics(base, t))
	curHosts, baseHosts := hostsOf(current), hostsOf(base)
	seen := set(baseHosts)
	for _, h := range curHosts {
		if !seen[h] {
			c.New = append(c.New, h)
		}
	}
	isNew := set(c.New)
	present := set(curHosts)
	for _, h := range baseHosts {
		if !present[h] {
			c.Missing = append(c.Missing, h)
		}
	}
	for _, key := range now.keys {
		old, ok := then.byKey[key]
		if !ok {
			continue // no baseline figure for this metric
		}
		m := now.first[key]
		rule, known := t.Classify(m.Name)
		if !known {
			rule, known = t.Classify(key)
		}
		if !known {
			rule = Rule{}
		}
		cur := now.byKey[key]
		for _, h := range curHosts {
			v, ok := cur[h]
			if !ok {
				continue
			}
			b, ok := old[h]
			if isNew[h] {
				b, ok = median(old), true
			}
			if ok {
				c.add(&c.Hosts, judge(key, h, isNew[h], b, v, rule, known))
			}
		}
		c.add(&c.Cluster, judge(key, "", false, median(old), median(cur), rule, known))
	}
	return c
}

func (c *Comparison) add(rows *[]Row, r Row) {
	*rows = append(*rows, r)
	if r.Verdict == Fail {
		c.Failed++
	}
}

// judge compares one value with its baseline figure.
func judge(key, host string, isNew bool, base, cur float64, rule Rule, known bool) Row {
	r := Row{Metric: key, Kind: rule.Kind, Better: rule.Better, Host: host, New: isNew,
		Baseline: base, Current: cur, Change: round(cur-base, 6), TolerancePct: round(rule.Tolerance*100, 4)}
	if base != 0 {
		p := round((cur-base)/math.Abs(base)*100, 4)
		r.ChangePct = &p
	}
	if !known || rule.Better == Unknown {
		r.Verdict = Info
		return r
	}
	worse := cur - base
	if rule.Better == Higher {
		worse = base - cur
	}
	switch {
	case worse <= 0:
		r.Verdict = Pass
	case base == 0:
		r.Verdict = Fail
	case worse/math.Abs(base) > rule.Tolerance+1e-9:
		r.Verdict = Fail
	default:
		r.Verdict = Pass
	}
	return r
}

// OnlyNew returns the hosts, in the order given, that base has not seen.
func OnlyNew(hosts []string, base *record.Record) []string {
	seen := set(Covered(base))
	out := []string{}
	for _, h := range hosts {
		if !seen[h] {
			out = append(out, h)
		}
	}
	return out
}

// Name is how a comparison names its baseline: the run ID, else the file.
func Name(rec *record.Record) string {
	if rec.Meta.RunID != "" {
		return rec.Meta.RunID
	}
	return rec.Dir
}

type metricIndex struct {
	keys  []string                      // run order
	byKey map[string]map[string]float64 // key -> host -> value
	first map[string]Metric
}

// index groups metrics by key; a repeated key on a host keeps the last.
func index(ms []Metric) metricIndex {
	ix := metricIndex{byKey: map[string]map[string]float64{}, first: map[string]Metric{}}
	for _, m := range ms {
		if _, ok := ix.byKey[m.Key]; !ok {
			ix.keys = append(ix.keys, m.Key)
			ix.byKey[m.Key] = map[string]float64{}
			ix.first[m.Key] = m
		}
		ix.byKey[m.Key][m.Host] = m.Value
	}
	return ix
}

// hostsOf lists the record's hosts: meta's, then any others seen in steps.
// Covered lists the hosts a baseline vouches for: every host of a complete
// run; of an incomplete one (killed, taken with --force-baseline) only the
// hosts that finished the run's last planned step, since the others were
// never verified to the end.
func Covered(rec *record.Record) []string {
	if !rec.Incomplete {
		return hostsOf(rec)
	}
	last := ""
	if n := len(rec.PlannedSteps); n > 0 {
		last = rec.PlannedSteps[n-1]
	}
	var out []string
	for _, s := range rec.Steps {
		if s.Step != last {
			continue
		}
		for _, h := range hostsOf(rec) {
			if hr, ok := s.Hosts[h]; ok && hr.Status != record.Unfinished {
				out = append(out, h)
			}
		}
	}
	return out
}

func hostsOf(rec *record.Record) []string {
	out := append([]string(nil), rec.Meta.Hosts...)
	seen := set(out)
	var extra []string
	for _, s := range rec.Steps {
		for h := range s.Hosts {
			if !seen[h] {
				seen[h] = true
				extra = append(extra, h)
			}
		}
	}
	sort.Strings(extra)
	return append(out, extra...)
}

func median(m map[string]float64) float64 {
	if len(m) == 0 {
		return 0
	}
	v := make([]float64, 0, len(m))
	for _, x := range m {
		v = append(v, x)
	}
	sort.Float64s(v)
	n := len(v)
	if n%2 == 1 {
		return v[n/2]
	}
	return (v[n/2-1] + v[n/2]) / 2
}

// round keeps sig significant digits, so reports do not show float noise.
func round(x float64, sig int) float64 {
	v, _ := strconv.ParseFloat(strconv.FormatFloat(x, 'g', sig, 64), 64)
	return v
}

func set(list []string) map[string]bool {
	m := make(map[string]bool, len(list))
	for _, s := range list {
		m[s] = true
	}
	return m
}

func sortedHosts(m map[string]record.HostResult) []string {
	out := make([]string, 0, len(m))
	for h := range m {
		out = append(out, h)
	}
	sort.Strings(out)
	return out
}

func sortedKeys(m map[string]any) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
