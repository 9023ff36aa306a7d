package apply

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/zclconf/go-cty/cty"

	"github.com/provadev/prova/engine/event"
	"github.com/provadev/prova/engine/module"
	"github.com/provadev/prova/engine/program"
)

// runCluster runs a ClusterModule step once over the batch's hosts whose
// when holds, and records every host's result.
func (r *Runner) runCluster(ctx context.Context, s *program.Step, m program.Meta, cm module.ClusterModule, batch []string) []outcome {
	obs := r.opts.Observer
	start := time.Now()
	outcomes := map[string]outcome{}
	req := module.ClusterRequest{Hosts: map[string]module.Host{}, BaseDir: r.prog.Runbook.BaseDir,
		Progress: func(host string, p module.Progress) {
			obs.Observe(event.Progress{Step: s.ID(), Host: host, Message: p.Message, Elapsed: p.Elapsed, Remaining: p.Remaining})
		}}
	se := r.stepEval(s)
	for _, h := range batch {
		obs.Observe(event.HostStarted{Step: s.ID(), Host: h})
		hc := se.on(h)
		if s.When != nil {
			ok, diags := se.whenHolds(hc)
			if diags.HasErrors() {
				outcomes[h] = outcome{status: event.Failed, message: "when: " + diagText(diags), resp: module.ApplyResponse{Diagnostics: diags}}
				continue
			}
			if !ok {
				outcomes[h] = outcome{status: event.Skipped, message: "when is false"}
				continue
			}
		}
		if req.Args == cty.NilVal {
			sa := se.decodeArgs(hc)
			diags := append(sa.decode[:len(sa.decode):len(sa.decode)], sa.validate...)
			if diags.HasErrors() || !sa.known || sa.typedErr != nil {
				msg := "arguments still unknown at apply time"
				switch {
				case diags.HasErrors():
					msg = diagText(diags)
				case sa.typedErr != nil:
					msg = sa.typedErr.Error()
				}
				for _, hh := range batch {
					outcomes[hh] = outcome{status: event.Failed, message: msg, resp: module.ApplyResponse{Diagnostics: diags}}
				}
				return r.finishCluster(s, m, batch, outcomes, start)
			}
			req.Args, req.Typed = sa.val, sa.typed
		}
		req.Hosts[h] = newStreamingHost(r.hostOf(&m, h), s.ID(), obs) // the module's for the call alone: a cluster module's goroutines may outlive one host's part
		req.Order = append(req.Order, h)
	}
	if len(req.Order) > 0 {
		actx := ctx
		timeout, from := r.timeoutFor(&m)
		if timeout > 0 {
			var cancel context.CancelFunc
			actx, cancel = context.WithTimeout(ctx, timeout)
			defer cancel()
		}
		first := req.Order[0]
		if _, err := r.lockFor(actx, s, module.PlanRequest{Host: req.Hosts[first], Args: req.Args, Typed: req.Typed, BaseDir: req.BaseDir}); err != nil {
			for _, h := range req.Order {
				outcomes[h] = outcome{status: event.Failed, message: err.Error()}
			}
			return r.finishCluster(s, m, batch, outcomes, start)
		}
		resps, err := cm.ApplyCluster(actx, req)
		for _, h := range req.Order {
			switch resp, ok := resps[h]; {
			case ok:
				outcomes[h] = statusOf(resp, m)
			case err != nil && module.IsUnreachable(err):
				outcomes[h] = outcome{status: event.Unreachable, message: err.Error()}
			case err != nil && errors.Is(actx.Err(), context.DeadlineExceeded) && ctx.Err() == nil:
				outcomes[h] = outcome{status: event.Failed, message: timedOut(h, timeout, from)}
			case err != nil:
				outcomes[h] = outcome{status: event.Failed, message: err.Error()}
			default:
				outcomes[h] = outcome{status: event.Failed, message: fmt.Sprintf("%s returned no result for %s", s.Module.ID(), h)}
			}
		}
	}
	return r.finishCluster(s, m, batch, outcomes, start)
}

func (r *Runner) finishCluster(s *program.Step, m program.Meta, batch []string, outcomes map[string]outcome, start time.Time) []outcome {
	var out []outcome
	se := r.stepEval(s)
	for _, h := range batch {
		o := outcomes[h]
		o.value = resultValue(s.ResultType, h, o.resp, o.status, o.message)
		o = r.judge(se, o, h)
		r.results.Set(s.Name, h, o.value)
		r.count(h, o.status)
		r.opts.Observer.Observe(event.HostFinished{Step: s.ID(), Host: h, Status: o.status, Message: o.message,
			Duration: time.Since(start), Diagnostics: o.resp.Diagnostics, Result: jsonResult(o.value),
			Evidence: o.resp.Evidence, Checks: checksFor(s.ID(), o.resp.Checks, o.status)})
		switch {
		case o.status == event.Unreachable:
			r.drop(s, h, "unreachable")
		case o.status == event.Failed && m.OnFailure != "continue":
			r.drop(s, h, "failed at "+s.ID())
		}
		out = append(out, o)
	}
	return out
}
