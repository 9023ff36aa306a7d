package bench

import (
	"math"
	"math/rand/v2"
	"sort"

	"github.com/provadev/prova/lab/sim"
)

// latStats summarises latency samples in µs.
type latStats struct {
	sorted         []float64
	Min, Max, Mean float64
	Stdev          float64
}

func newLatStats(samples []float64) latStats {
	s := append([]float64(nil), samples...)
	sort.Float64s(s)
	var sum, sq float64
	for _, v := range s {
		sum += v
	}
	mean := sum / float64(len(s))
	for _, v := range s {
		sq += (v - mean) * (v - mean)
	}
	return latStats{sorted: s, Min: s[0], Max: s[len(s)-1], Mean: mean, Stdev: math.Sqrt(sq / float64(len(s)))}
}

// P is the p-th percentile (0-100).
func (l latStats) P(p float64) float64 {
	i := int(math.Ceil(p/100*float64(len(l.sorted)))) - 1
	return l.sorted[max(0, min(i, len(l.sorted)-1))]
}

// Share is the fraction of samples in (lo, hi].
func (l latStats) Share(lo, hi float64) float64 {
	a := sort.SearchFloat64s(l.sorted, math.Nextafter(lo, math.Inf(1)))
	b := sort.SearchFloat64s(l.sorted, math.Nextafter(hi, math.Inf(1)))
	return float64(b-a) / float64(len(l.sorted))
}

// Scale multiplies every sample by f.
func (l latStats) Scale(f float64) latStats {
	s := make([]float64, len(l.sorted))
	for i, v := range l.sorted {
		s[i] = v * f
	}
	return newLatStats(s)
}

// lognormal draws n samples around median m with shape sigma.
func lognormal(r *rand.Rand, n int, m, sigma float64) []float64 {
	out := make([]float64, n)
	for i := range out {
		out[i] = m * math.Exp(sigma*r.NormFloat64())
	}
	return out
}

// runNoise is the standard deviation, in percent, of a healthy path's
// latency and IOPS from one run to the next. Clipped at 3 sigma, a run is
// at most 4.5 % off, so two runs spread by at most 9 %, under the 10 % at
// which the default profile says a median is not stable: a quiet healthy
// system repeats within a few percent, and the lab's healthy scenarios
// must not be judged unstable by chance (a 3 % sigma made two passes
// spread by more than 10 % in about one run in fifty).
const runNoise = 1.5

// noise is a factor near 1: a normal spread of pct percent, clamped to
// three spreads.
func noise(r *rand.Rand, pct float64) float64 {
	x := max(-3, min(3, r.NormFloat64()))
	return 1 + x*pct/100
}

// runCounter is the node's "bench" state: how many runs started.
type runCounter struct {
	Runs uint64 `json:"runs"`
}

// newRand seeds a run's noise from the clock and the node's run counter,
// so two runs differ even with a frozen clock.
func newRand(e *sim.Env) (*rand.Rand, error) {
	var c runCounter
	err := e.Update(e.NodeState("bench"), &c, func() (bool, error) { c.Runs++; return true, nil })
	if err != nil {
		return nil, err
	}
	return rand.New(rand.NewPCG(uint64(e.Now().UnixNano()), c.Runs)), nil
}
