package baseline

import (
	"fmt"
	"strconv"
	"strings"
)

// Better says which way a metric improves.
type Better string

// Directions of improvement. Unknown metrics are shown, never judged.
const (
	Lower   Better = "lower"
	Higher  Better = "higher"
	Unknown Better = ""
)

// Rule classifies metrics by name and says how far they may regress.
type Rule struct {
	// Kind names the rule (latency, cpu, bandwidth...); overrides use it.
	Kind string
	// Match holds substrings; a metric whose lower-cased name contains
	// one of them follows the rule.
	Match  []string
	Better Better
	// Tolerance is the regression allowed, as a fraction of the baseline
	// value (0.2 = 20%).
	Tolerance float64
}

// Tolerances is a named profile of rules; the first matching rule wins.
type Tolerances struct {
	Name  string
	Rules []Rule
}

// DefaultProfile is the name of Default's profile.
const DefaultProfile = "prova-default/1"

// Default returns the default profile: latency may grow by 20%, CPU by 25%;
// the %soft saved by RDMA, bandwidth and IOPS may drop by 25%, 10% and 10%;
// error counts may not grow and RDMA peer counts may not drop at all.
func Default() Tolerances {
	return Tolerances{Name: DefaultProfile, Rules: []Rule{
		{Kind: "cpu_saving", Match: []string{"soft_drop", "soft drop"}, Better: Higher, Tolerance: 0.25},
		{Kind: "errors", Match: []string{"missing", "error", "retrans", "drop", "down"}, Better: Lower},
		{Kind: "latency", Match: []string{"lat", "_us", "_ms", "usec"}, Better: Lower, Tolerance: 0.20},
		{Kind: "cpu", Match: []string{"cpu", "soft", "busy"}, Better: Lower, Tolerance: 0.25},
		{Kind: "iops", Match: []string{"iops"}, Better: Higher, Tolerance: 0.10},
		{Kind: "bandwidth", Match: []string{"bw", "bandwidth", "throughput", "gbps", "gib", "mib", "share", "line_rate"}, Better: Higher, Tolerance: 0.10},
		{Kind: "peers", Match: []string{"peer", "conn"}, Better: Higher},
	}}
}

// Classify returns the rule a metric name follows.
func (t Tolerances) Classify(name string) (Rule, bool) {
	n := strings.ToLower(name)
	for _, r := range t.Rules {
		for _, m := range r.Match {
			if strings.Contains(n, m) {
				return r, true
			}
		}
	}
	return Rule{}, false
}

// With returns a copy of t whose rule kind allows tol (a fraction). The
// profile's name gets a "+overrides" suffix.
func (t Tolerances) With(kind string, tol float64) (Tolerances, error) {
	if tol < 0 {
		return t, fmt.Errorf("tolerance for %s: %v is negative", kind, tol)
	}
	out := Tolerances{Name: t.Name, Rules: append([]Rule(nil), t.Rules...)}
	for i, r := range out.Rules {
		if r.Kind == kind {
			out.Rules[i].Tolerance = tol
			if !strings.HasSuffix(out.Name, "+overrides") {
				out.Name += "+overrides"
			}
			return out, nil
		}
	}
	return t, fmt.Errorf("tolerance: no metric kind %q (kinds: %s)", kind, strings.Join(t.Kinds(), ", "))
}

// Kinds lists the profile's rule kinds in order.
func (t Tolerances) Kinds() []string {
	var k []string
	for _, r := range t.Rules {
		k = append(k, r.Kind)
	}
	return k
}

// ParseOverride reads "KIND=PCT" ("latency=30", "latency=30%", "cpu=+25%")
// and applies it to t.
func (t Tolerances) ParseOverride(s string) (Tolerances, error) {
	kind, pct, ok := strings.Cut(s, "=")
	if !ok {
		return t, fmt.Errorf("tolerance %q: want KIND=PERCENT, e.g. latency=30%%", s)
	}
	p := strings.TrimSuffix(strings.TrimLeft(strings.TrimSpace(pct), "+-"), "%")
	v, err := strconv.ParseFloat(p, 64)
	if err != nil {
		return t, fmt.Errorf("tolerance %q: %q is not a percentage", s, pct)
	}
	return t.With(strings.TrimSpace(kind), v/100)
}
