package bench

import (
	"encoding/json"
	"strings"
)

// Field names one statistic of a Latency.
type Field uint8

// The statistics a Latency can hold.
const (
	Avg Field = 1 << iota
	Min
	Max
	P50
	P90
	P99
	P999
)

var fieldNames = []struct {
	f    Field
	name string
}{{Avg, "avg"}, {Min, "min"}, {Max, "max"}, {P50, "p50"}, {P90, "p90"}, {P99, "p99"}, {P999, "p99.9"}}

// String returns the JSON key of f ("avg", "p99.9", ...).
func (f Field) String() string {
	var names []string
	for _, n := range fieldNames {
		if f&n.f != 0 {
			names = append(names, n.name)
		}
	}
	return strings.Join(names, "|")
}

// Latency is a latency distribution in microseconds. A statistic the tool
// did not report is 0 and absent from Present; use Has to tell "0 µs" from
// "not reported". Set keeps values finite.
type Latency struct {
	Avg, Min, Max, P50, P90, P99, P999 float64
	Present                            Field
}

// Has reports whether every statistic in f was reported.
func (l Latency) Has(f Field) bool { return f != 0 && l.Present&f == f }

// Empty reports whether no statistic was reported.
func (l Latency) Empty() bool { return l.Present == 0 }

// Set records statistic f (a single Field) with value v in µs.
func (l *Latency) Set(f Field, v float64) {
	p := l.ptr(f)
	if p == nil {
		return
	}
	*p = finite(v)
	l.Present |= f
}

// Get returns statistic f and whether it was reported.
func (l Latency) Get(f Field) (float64, bool) {
	p := l.ptr(f)
	if p == nil || !l.Has(f) {
		return 0, false
	}
	return *p, true
}

func (l *Latency) ptr(f Field) *float64 {
	switch f {
	case Avg:
		return &l.Avg
	case Min:
		return &l.Min
	case Max:
		return &l.Max
	case P50:
		return &l.P50
	case P90:
		return &l.P90
	case P99:
		return &l.P99
	case P999:
		return &l.P999
	}
	return nil
}

// MarshalJSON writes only the reported statistics, e.g. {"avg":25.1,"p99":40}.
func (l Latency) MarshalJSON() ([]byte, error) {
	m := map[string]float64{}
	for _, n := range fieldNames {
		if v, ok := l.Get(n.f); ok {
			m[n.name] = v
		}
	}
	return json.Marshal(m)
}

// UnmarshalJSON reads what MarshalJSON wrote.
func (l *Latency) UnmarshalJSON(b []byte) error {
	var m map[string]float64
	if err := json.Unmarshal(b, &m); err != nil {
		return err
	}
	*l = Latency{}
	for _, n := range fieldNames {
		if v, ok := m[n.name]; ok {
			l.Set(n.f, v)
		}
	}
	return nil
}
