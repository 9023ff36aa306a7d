package elbencho

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/provadev/prova/parse/bench"
)

// num reads a table number ("660", "10572", "1.5").
func num(s string) (float64, error) {
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
		return 0, fmt.Errorf("%q is not a number", s)
	}
	return v, nil
}

// humanMs reads elbencho's human durations ("61ms", "15.296s", "30m0.262s",
// "1h0m0s", "123us") into milliseconds.
func humanMs(s string) (float64, error) {
	d, err := time.ParseDuration(s)
	if err != nil || d < 0 {
		return 0, fmt.Errorf("%q is not a duration", s)
	}
	return float64(d) / float64(time.Millisecond), nil
}

func msDuration(ms float64) time.Duration {
	if ms <= 0 || ms > float64(math.MaxInt64/int64(time.Millisecond)) {
		return 0
	}
	return time.Duration(ms * float64(time.Millisecond))
}

// phaseOp names the operation of a phase for bench.Result.Op.
func phaseOp(name string) string { return strings.ToLower(name) }

// parseMinAvgMax reads "min=61.4ms avg=62.5ms max=63.7ms" (human units, 3.x)
// or "min=12 avg=34 max=56" (plain µs, "lat us" rows) into l.
func parseMinAvgMax(items []string, human bool, l *bench.Latency) error {
	for _, it := range items {
		k, v, ok := strings.Cut(it, "=")
		var f bench.Field
		switch k {
		case "min":
			f = bench.Min
		case "avg":
			f = bench.Avg
		case "max":
			f = bench.Max
		}
		if !ok || f == 0 {
			return fmt.Errorf("latency item %q is not min=, avg= or max=", it)
		}
		var us float64
		var err error
		if human {
			var ms float64
			ms, err = humanMs(v)
			us = ms * 1000
		} else {
			us, err = num(v)
		}
		if err != nil {
			return err
		}
		l.Set(f, us)
	}
	return nil
}

// parsePercentiles reads "1%<=2896 50%<=4096 ... 99.9%<=6889".
func parsePercentiles(items []string, lat *Latency) error {
	if strings.Join(items, " ") == "Histogram exceeded" {
		lat.HistogramExceeded = true
		return nil
	}
	lat.Percentiles = map[string]float64{}
	for _, it := range items {
		p, v, ok := strings.Cut(it, "%<=")
		if !ok {
			return fmt.Errorf("percentile %q is not N%%<=µs", it)
		}
		if _, err := num(p); err != nil {
			return fmt.Errorf("percentile %q: %v", it, err)
		}
		us, err := num(v)
		if err != nil {
			return fmt.Errorf("percentile %q: %v", it, err)
		}
		lat.Percentiles[p] = us
		switch p {
		case "50":
			lat.Us.Set(bench.P50, us)
		case "90":
			lat.Us.Set(bench.P90, us)
		case "99":
			lat.Us.Set(bench.P99, us)
		case "99.9":
			lat.Us.Set(bench.P999, us)
		}
	}
	return nil
}

// parseHistogram reads "2896: 100 4096: 7" (bucket µs, count).
func parseHistogram(items []string, lat *Latency) error {
	if len(items)%2 != 0 {
		return fmt.Errorf("histogram needs <µs>: <count> pairs")
	}
	for i := 0; i < len(items); i += 2 {
		b, ok := strings.CutSuffix(items[i], ":")
		if !ok {
			return fmt.Errorf("histogram bucket %q lacks ':'", items[i])
		}
		us, err := num(b)
		if err != nil {
			return err
		}
		n, err := strconv.ParseUint(items[i+1], 10, 64)
		if err != nil {
			return fmt.Errorf("histogram count %q is not a number", items[i+1])
		}
		lat.Histogram = append(lat.Histogram, Bucket{Us: us, Count: n})
	}
	return nil
}
