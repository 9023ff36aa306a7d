package bench

import (
	"context"
	"math"
	"math/rand/v2"
	"time"

	"github.com/provadev/prova/lab/sim"
)

// loadProfile is the CPU a benchmark keeps busy: Busy cores (fractional)
// on the data port's NUMA node, each at PerCore, the rest at Idle.
type loadProfile struct {
	Busy    float64
	PerCore sim.CPULoad
	Idle    sim.CPULoad
	First   int // first busy CPU
}

var background = sim.CPULoad{Usr: 0.3, Sys: 0.2, Soft: 0.02}

// profile is the CPU cost of moving work (0..1 of the path's capacity).
func profile(r *rand.Rand, p path, work float64, cpus int) loadProfile {
	work = math.Max(0.05, math.Min(1, work))
	lp := loadProfile{Idle: background}
	switch p.Transport {
	case "tcp": // copies, checksums and softirq on every byte: 8-12 cores
		lp.Busy = 10 * work * noise(r, 6)
		lp.PerCore = sim.CPULoad{Usr: 6 * noise(r, 5), Sys: 50 * noise(r, 3), Soft: 26 * noise(r, 3), Irq: 1.5}
	case "rdma": // the HCA moves the data: 1-2 cores polling completions
		lp.Busy = math.Max(1, 1.6*work*noise(r, 6))
		lp.PerCore = sim.CPULoad{Usr: 30 * noise(r, 5), Sys: 9 * noise(r, 5), Soft: 15 * noise(r, 4), Irq: 0.8}
	default: // local NVMe: interrupts and block layer
		lp.Busy = 3 * work * noise(r, 6)
		lp.PerCore = sim.CPULoad{Usr: 12 * noise(r, 5), Sys: 35 * noise(r, 4), Soft: 3, Irq: 4}
	}
	lp.Busy = math.Min(lp.Busy, float64(cpus))
	return lp
}

// state is the per-CPU load state for a node of cpus CPUs, busy cores
// starting at the data port's NUMA node.
func (lp loadProfile) state(cpus, numaNodes int) sim.LoadState {
	s := sim.LoadState{All: lp.Idle, PerCPU: map[int]sim.CPULoad{}}
	per := cpus / max(numaNodes, 1)
	for i := 0; float64(i) < lp.Busy && i < cpus; i++ {
		f := math.Min(1, lp.Busy-float64(i))
		c := (lp.First*per + i) % cpus
		s.PerCPU[c] = mix(lp.Idle, lp.PerCore, f)
	}
	return s
}

func mix(a, b sim.CPULoad, f float64) sim.CPULoad {
	m := func(x, y float64) float64 { return x*(1-f) + y*f }
	return sim.CPULoad{Usr: m(a.Usr, b.Usr), Sys: m(a.Sys, b.Sys), Soft: m(a.Soft, b.Soft), Irq: m(a.Irq, b.Irq)}
}

// utilPct is the average busy percentage over all CPUs (elbencho's "CPU
// util %").
func (lp loadProfile) utilPct(cpus int) float64 {
	busy := func(l sim.CPULoad) float64 { return 100 - l.Idle() }
	b := math.Min(lp.Busy, float64(cpus))
	return (b*busy(lp.PerCore) + (float64(cpus)-b)*busy(lp.Idle)) / float64(cpus)
}

// run sets the node's CPU load for d, waits d (or until ctx ends), and
// resets the load to idle. It reports whether the wait completed.
func run(ctx context.Context, e *sim.Env, lp loadProfile, d time.Duration) (bool, error) {
	n, err := e.Model()
	if err != nil {
		return false, err
	}
	if err := e.SetLoad(lp.state(n.CPUs, n.NUMANodes)); err != nil {
		return false, err
	}
	waitErr := e.Sleep(ctx, d)
	if err := e.SetLoad(sim.LoadState{}); err != nil {
		return false, err
	}
	return waitErr == nil, nil
}
