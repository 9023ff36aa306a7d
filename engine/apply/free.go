package apply

import (
	"context"
	"sync"
	"time"

	"github.com/hashicorp/hcl/v2"

	"github.com/provadev/prova/engine/eval"
	"github.com/provadev/prova/engine/event"
	"github.com/provadev/prova/engine/module"
	"github.com/provadev/prova/engine/program"
)

// Strategies.
const (
	// Linear runs a step on all its hosts before the next step starts.
	Linear = "linear"
	// Free lets every host go through the steps at its own pace; hosts wait
	// for each other only at barrier steps (see barrier).
	Free = "free"
)

// barrier reports whether a step needs every host to have reached it:
// run_once, serial, max_fail_percentage, cluster-wide modules, and steps
// that read every host's results (per_host).
func (r *Runner) barrier(s *program.Step) bool {
	m, _ := program.EvalMeta(s, eval.WithEach(r.scope.Base(), s.Each), true)
	if m.RunOnce || m.Serial > 0 || m.SerialPercent > 0 || m.MaxFailPercentage >= 0 {
		return true
	}
	if _, ok := s.Module.(module.ClusterModule); ok {
		return true
	}
	for _, tr := range s.References() {
		if tr.RootName() == "per_host" {
			return true
		}
	}
	return false
}

// runSegment runs consecutive non-barrier steps in free order: each host
// walks through them on its own, bounded by Forks hosts at a time.
func (r *Runner) runSegment(ctx context.Context, steps []*program.Step) (stop, []string, hcl.Diagnostics) {
	var diags hcl.Diagnostics
	metas := make([]program.Meta, len(steps))
	hostSets := make([]map[string]bool, len(steps))
	union := map[string]bool{}
	for i, s := range steps {
		m, d := program.EvalMeta(s, eval.WithEach(r.scope.Base(), s.Each), false)
		diags = append(diags, d...)
		if d.HasErrors() {
			return invalidStep(s, "arguments"), nil, diags
		}
		hosts, d := r.stepHosts(s, m)
		diags = append(diags, d...)
		if d.HasErrors() {
			return invalidStep(s, "hosts"), nil, diags
		}
		metas[i] = m
		hostSets[i] = map[string]bool{}
		for _, h := range hosts {
			hostSets[i][h] = true
			union[h] = true
		}
		if len(hosts) > 0 {
			r.opts.Observer.Observe(event.StepStarted{Step: s.ID(), Module: s.Module.ID(), Name: s.Name, Hosts: hosts})
		}
	}
	start := time.Now()
	var mu sync.Mutex
	unfinished := map[string]bool{}
	r.workers.fanOut(ctx, orderedHosts(r.inv.Names(), union), r.opts.Forks, func(ctx context.Context, h string) {
		for i, s := range steps {
			if !hostSets[i][h] {
				continue
			}
			if ctx.Err() != nil || !r.isActive(h) || r.halted().stops() {
				mu.Lock()
				if ctx.Err() != nil || r.halted().stops() {
					unfinished[s.ID()] = true
				}
				mu.Unlock()
				continue
			}
			r.runHost(ctx, r.stepEval(s), &metas[i], h)
		}
	})
	for i, s := range steps {
		if len(hostSets[i]) > 0 && !unfinished[s.ID()] && ctx.Err() == nil {
			r.opts.Observer.Observe(event.StepFinished{Step: s.ID(), Duration: time.Since(start)})
		}
	}
	if ctx.Err() != nil || r.halted().stops() {
		var half []string
		for _, s := range steps {
			half = append(half, s.ID())
		}
		if st := r.halted(); st.stops() && ctx.Err() == nil {
			return st, half, diags
		}
		return interrupted, half, diags
	}
	return stop{}, nil, diags
}

func (r *Runner) isActive(h string) bool {
	return r.hosts.isActive(h)
}

func orderedHosts(all []string, set map[string]bool) []string {
	var out []string
	for _, h := range all {
		if set[h] {
			out = append(out, h)
		}
	}
	return out
}
