package apply

import (
	"context"
	"time"

	"github.com/zclconf/go-cty/cty"

	"github.com/provadev/prova/engine/eval"
	"github.com/provadev/prova/engine/event"
	"github.com/provadev/prova/engine/module"
	"github.com/provadev/prova/engine/program"
)

// planHost plans step s on one host with every step result unknown.
func (r *Runner) planHost(ctx context.Context, s *program.Step, host string) outcome {
	p := r.probe(ctx, s, host)
	r.mu.Lock()
	r.planned = append(r.planned, p)
	if p.Action == "change" || p.Action == module.Unknown.String() {
		r.dirty[s.Name] = true
	}
	r.mu.Unlock()
	r.opts.Observer.Observe(p)
	st := event.OK
	switch p.Action {
	case "unreachable":
		st = event.Unreachable
		r.count(host, st)
		r.drop(s, host, "unreachable")
	case "error":
		st = event.Failed
		r.count(host, st)
	case module.Change.String():
		st = event.Changed
		r.count(host, st)
	case module.Skip.String():
		st = event.Skipped
		r.count(host, st)
	default:
		r.count(host, st)
	}
	return outcome{status: st}
}

func planned(s *program.Step, host string, a module.Action, summary string, changes []module.AttrChange) event.PlannedHost {
	p := event.PlannedHost{Step: s.ID(), Host: host, Action: a.String(), Symbol: a.Symbol(), Summary: summary}
	for _, c := range changes {
		p.Changes = append(p.Changes, event.Change(c))
	}
	return p
}

func (r *Runner) dependsOnDirty(s *program.Step) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	var walk func(names []string) bool
	seen := map[string]bool{}
	walk = func(names []string) bool {
		for _, n := range names {
			if seen[n] {
				continue
			}
			seen[n] = true
			if r.dirty[n] {
				return true
			}
			if d, ok := r.prog.Step(n); ok && walk(d.Deps) {
				return true
			}
		}
		return false
	}
	return walk(s.Deps)
}

func (r *Runner) probe(ctx context.Context, s *program.Step, host string) event.PlannedHost {
	hctx := eval.WithEach(r.scope.HostSteps(host, nil, cty.NilVal, s.Deps), s.Each)
	if s.When != nil {
		v, diags := s.When.Value(hctx)
		switch {
		case diags.HasErrors():
			return event.PlannedHost{Step: s.ID(), Host: host, Action: "error", Symbol: "!", Summary: diagText(diags)}
		case !v.IsKnown():
			return planned(s, host, module.Unknown, "when depends on results of earlier steps", nil)
		case v.IsNull() || v.Type() != cty.Bool:
			return event.PlannedHost{Step: s.ID(), Host: host, Action: "error", Symbol: "!", Summary: "when must be true or false"}
		case v.False():
			return planned(s, host, module.Skip, "when is false", nil)
		}
	}
	if r.dependsOnDirty(s) {
		return planned(s, host, module.Unknown, "depends on a step planned to change", nil)
	}
	if be, ok := s.Module.(module.BodyEvaluator); ok {
		resp, known, diags := be.EvalBody(s.Body, hctx)
		switch {
		case diags.HasErrors():
			return event.PlannedHost{Step: s.ID(), Host: host, Action: "error", Symbol: "!", Summary: diagText(diags)}
		case !known:
			return planned(s, host, module.Unknown, "checked after apply", nil)
		case resp.Failed:
			return event.PlannedHost{Step: s.ID(), Host: host, Action: "would fail", Symbol: "!", Summary: resp.Message}
		}
		return planned(s, host, module.NoOp, "holds", nil)
	}
	args, diags := program.DecodeArgs(s, hctx)
	if diags.HasErrors() {
		return event.PlannedHost{Step: s.ID(), Host: host, Action: "error", Symbol: "!", Summary: diagText(diags)}
	}
	if !args.IsWhollyKnown() {
		return planned(s, host, module.Unknown, "arguments depend on results of earlier steps", nil)
	}
	if d := program.AttachRange(s.Module.Validate(args), s.DeclRange); d.HasErrors() {
		return event.PlannedHost{Step: s.ID(), Host: host, Action: "error", Symbol: "!", Summary: diagText(d)}
	}
	m, _ := program.EvalMeta(s, eval.WithEach(r.scope.Base(), s.Each), false)
	h := r.hostFor(s, m, host)
	pctx := ctx
	if m.Timeout > 0 {
		var cancel context.CancelFunc
		pctx, cancel = context.WithTimeout(ctx, max(m.Timeout, 30*time.Second))
		defer cancel()
	}
	resp, err := s.Module.Plan(pctx, module.PlanRequest{Host: h, Args: args, BaseDir: r.prog.Runbook.BaseDir})
	if err != nil {
		if module.IsUnreachable(err) {
			return event.PlannedHost{Step: s.ID(), Host: host, Action: "unreachable", Symbol: "!", Summary: err.Error()}
		}
		return event.PlannedHost{Step: s.ID(), Host: host, Action: "error", Symbol: "!", Summary: err.Error()}
	}
	if resp.Action == module.Change && s.ChangedWhen != nil {
		// A step declared never to count as changed runs on apply but does
		// not change the host, by the runbook author's word.
		if v, d := s.ChangedWhen.Value(eval.WithEach(r.scope.Base(), s.Each)); !d.HasErrors() && v.IsKnown() && v.Type() == cty.Bool && v.False() {
			return planned(s, host, module.NoOp, "runs on apply; changed_when = false", nil)
		}
	}
	return planned(s, host, resp.Action, resp.Summary, resp.Changes)
}
