package bench

import (
	"context"
	"fmt"
	"math"
	"slices"

	"github.com/provadev/prova/engine/module"
)

// spreadWarnPct is the run-to-run spread (max - min over the median of
// IOPS) above which the message says the runs disagree.
const spreadWarnPct = 10

// repeated runs a block benchmark a.Repeat times one after another and
// returns the median of each statistic, the spread of IOPS and every run's
// evidence. The first failed run ends the series and fails the step.
func repeated(ctx context.Context, req module.ApplyRequest, a args) (module.ApplyResponse, error) {
	once := runElbencho
	if a.Tool == "fio" {
		once = runFio
	}
	var results []result
	var runs []*run
	var last module.ApplyResponse
	evidence := map[string]string{}
	for i := 0; i < a.Repeat; i++ {
		resp, r, res, err := once(ctx, req, a)
		for k, v := range resp.Evidence {
			if a.Repeat > 1 {
				k = fmt.Sprintf("%s (run %d of %d)", k, i+1, a.Repeat)
			}
			evidence[k] = v
		}
		resp.Evidence = evidence
		if err != nil || res == nil {
			if resp.Failed && a.Repeat > 1 {
				resp.Message = fmt.Sprintf("run %d of %d: %s", i+1, a.Repeat, resp.Message)
			}
			return resp, err
		}
		res.CPU = r.cpu
		results, runs, last = append(results, *res), append(runs, r), resp
	}
	res := median(results)
	res.BlockSize = blockBytes(a)
	inFlight := a.Threads * a.IODepth
	res.InFlight = &inFlight
	n := len(results)
	res.Runs = &n
	spread := spreadPct(results)
	res.SpreadPct = spread
	v, err := res.value()
	if err != nil {
		return last, err
	}
	last.Outputs = v
	last.Message = a.describe() + ": " + summary(res)
	if n > 1 && spread != nil {
		last.Message += fmt.Sprintf("; median of %d runs, IOPS spread %.1f %%", n, *spread)
		if *spread > spreadWarnPct {
			last.Message += fmt.Sprintf(" (more than %d %%: the runs disagree)", spreadWarnPct)
		}
	}
	for _, r := range runs {
		if r.cpuNote != "" {
			last.Message += "; " + r.cpuNote
			break
		}
	}
	return last, nil
}

func blockBytes(a args) *float64 {
	n, err := bytesOf(a.blockSize())
	if err != nil {
		return nil
	}
	f := float64(n)
	return &f
}

// median takes each statistic's median over the runs (a statistic missing
// in one run is missing in the result), CPU included.
func median(rs []result) result {
	if len(rs) == 1 {
		return rs[0]
	}
	out := rs[0]
	pick := func(get func(*result) **float64) {
		var vs []float64
		for i := range rs {
			p := *get(&rs[i])
			if p == nil {
				*get(&out) = nil
				return
			}
			vs = append(vs, *p)
		}
		m := med(vs)
		*get(&out) = &m
	}
	for _, g := range []func(*result) **float64{
		func(r *result) **float64 { return &r.IOPS }, func(r *result) **float64 { return &r.MiBps },
		func(r *result) **float64 { return &r.Gbps }, func(r *result) **float64 { return &r.LatAvg },
		func(r *result) **float64 { return &r.LatMin }, func(r *result) **float64 { return &r.LatMax },
		func(r *result) **float64 { return &r.LatP50 }, func(r *result) **float64 { return &r.LatP99 },
		func(r *result) **float64 { return &r.LatP999 }, func(r *result) **float64 { return &r.RuntimeS },
	} {
		pick(g)
	}
	out.CPU = medianCPU(rs)
	return out
}

func medianCPU(rs []result) *cpuResult {
	var cs []cpuResult
	for _, r := range rs {
		if r.CPU == nil {
			return nil
		}
		cs = append(cs, *r.CPU)
	}
	f := func(get func(cpuResult) float64) float64 {
		var vs []float64
		for _, c := range cs {
			vs = append(vs, get(c))
		}
		return round(med(vs))
	}
	samples := 0
	for _, c := range cs {
		samples += c.Samples
	}
	return &cpuResult{
		SoftPct: f(func(c cpuResult) float64 { return c.SoftPct }), SysPct: f(func(c cpuResult) float64 { return c.SysPct }),
		IRQPct: f(func(c cpuResult) float64 { return c.IRQPct }), UsrPct: f(func(c cpuResult) float64 { return c.UsrPct }),
		IOWaitPct: f(func(c cpuResult) float64 { return c.IOWaitPct }), KernelPct: f(func(c cpuResult) float64 { return c.KernelPct }),
		BusyCores: f(func(c cpuResult) float64 { return c.BusyCores }), HottestPct: f(func(c cpuResult) float64 { return c.HottestPct }),
		CPUs: cs[0].CPUs, Samples: samples,
	}
}

func med(vs []float64) float64 {
	s := slices.Clone(vs)
	slices.Sort(s)
	if n := len(s); n%2 == 1 {
		return s[n/2]
	} else {
		return (s[n/2-1] + s[n/2]) / 2
	}
}

// spreadPct is (max - min) / median of IOPS in percent; nil for one run
// or when IOPS is missing.
func spreadPct(rs []result) *float64 {
	if len(rs) < 2 {
		return nil
	}
	var vs []float64
	for _, r := range rs {
		if r.IOPS == nil {
			return nil
		}
		vs = append(vs, *r.IOPS)
	}
	m := med(vs)
	if m <= 0 {
		return nil
	}
	s := round((slices.Max(vs) - slices.Min(vs)) / m * 100)
	if math.IsNaN(s) {
		return nil
	}
	return &s
}
