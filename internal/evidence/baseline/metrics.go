package baseline

import (
	"strconv"
	"strings"

	"github.com/provadev/prova/internal/evidence/record"
	"github.com/provadev/prova/internal/lazyre"
)

// Source says where a metric was read.
const (
	FromCheck  = "check"
	FromResult = "result"
)

// Metric is one measured number of a record on one host.
type Metric struct {
	// Key identifies the metric across runs: "<step>/<check>" for a check,
	// "<step>.<attribute>" for a result attribute.
	Key    string
	Step   string
	Name   string
	Source string
	Host   string
	Value  float64
}

// ignored result attributes: bookkeeping, not measurements.
var ignored = map[string]bool{
	"rc": true, "exit_code": true, "exit_status": true, "changed": true, "failed": true,
	"attempts": true, "duration_s": true, "pid": true, "port": true, "count": true,
}

var numberRE = lazyre.New(`^\s*([-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)\s*([A-Za-zµ%/]{0,8})\s*(?:\(.*)?$`)

// ParseNumber reads a measured value: a number with an optional unit of
// up to 8 letters ("3.1", "3.1 us", "42%", "12.5GiB/s"), optionally
// followed by a parenthesised explanation ("0.31 (1.9 µs / 6.2 µs)",
// "85 % (%soft 1.1 vs 8.3), busy cores 0.6 vs 3.9"). Anything else is not
// a number.
func ParseNumber(s string) (float64, bool) {
	m := numberRE.FindStringSubmatch(s)
	if m == nil {
		return 0, false
	}
	v, err := strconv.ParseFloat(m[1], 64)
	return v, err == nil
}

// Metrics lists the record's measured numbers in run order: every check
// whose measured value is a number, and every result attribute the profile
// classifies (a list counts its elements). Finished host results only.
func Metrics(rec *record.Record, t Tolerances) []Metric {
	var out []Metric
	for _, s := range rec.Steps {
		for _, h := range sortedHosts(s.Hosts) {
			r := s.Hosts[h]
			if r.Status == record.Unfinished {
				continue
			}
			for _, c := range r.Checks {
				if v, ok := ParseNumber(c.Measured); ok {
					out = append(out, Metric{Key: s.Step + "/" + c.Name, Step: s.Step, Name: c.Name, Source: FromCheck, Host: h, Value: v})
				}
			}
			for _, k := range sortedKeys(r.Result) {
				if ignored[k] || strings.HasSuffix(strings.ToLower(k), "version") {
					continue
				}
				if _, ok := t.Classify(k); !ok {
					continue
				}
				if v, ok := numeric(r.Result[k]); ok {
					out = append(out, Metric{Key: s.Step + "." + k, Step: s.Step, Name: k, Source: FromResult, Host: h, Value: v})
				}
			}
		}
	}
	return out
}

// numeric reads a JSON number, or the length of a list.
func numeric(v any) (float64, bool) {
	switch x := v.(type) {
	case float64:
		return x, true
	case float32:
		return float64(x), true
	case int:
		return float64(x), true
	case int64:
		return float64(x), true
	case []any:
		return float64(len(x)), true
	case []string:
		return float64(len(x)), true
	}
	return 0, false
}
