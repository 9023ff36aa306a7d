package apply

import (
	"context"
	"slices"
	"sync"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/provadev/prova/engine/eval"
	"github.com/provadev/prova/engine/event"
	"github.com/provadev/prova/engine/module"
	"github.com/provadev/prova/engine/program"
)

// planHost plans step s on one host. Read-only steps run for real (their
// commands are probes) and their results feed later steps; a step planned
// to change, or whose value only apply produces, leaves an unknown result,
// so that only what is downstream of a change stays "known after apply".
func (r *Runner) planHost(ctx context.Context, s *program.Step, m program.Meta, host string) outcome {
	p, res := r.probe(ctx, s, m, host)
	switch {
	case res != cty.NilVal && !res.IsKnown() && (res.RawEquals(unknownResult) || res.RawEquals(cty.UnknownVal(s.ResultType))):
		// The result of most host-steps downstream of a change.
		r.results.SetUnknown(s.Name, host, s.ResultType)
	case res != cty.NilVal:
		r.results.Set(s.Name, host, res)
	case p.Action == event.PlanSkip:
		r.results.SetSkipped(s.Name, host, s.ResultType)
	default:
		r.results.SetPlanned(s.Name, host, s.ResultType, p.Action == event.PlanChange)
	}
	r.mu.Lock()
	if len(r.planned) == cap(r.planned) {
		r.planned = slices.Grow(r.planned, r.plannedRoom(s))
	}
	r.planned = append(r.planned, p)
	if p.Action == event.PlanChange || p.Action == event.PlanUnknown {
		r.dirty[s.Name] = true
		r.ndirty.Store(int64(len(r.dirty)))
		_, mayChange := s.Module.(module.Planner)
		if (mayChange || p.Action == event.PlanChange) && (r.firstChange == nil || r.order[s] < r.order[r.firstChange]) {
			r.firstChange = s
		}
	}
	r.mu.Unlock()
	r.opts.Observer.Observe(p)
	st := event.OK
	switch p.Action {
	case event.PlanUnreachable:
		st = event.Unreachable
	case event.PlanError, event.PlanWouldFail:
		st = event.Failed
	case event.PlanChange:
		st = event.Changed
	case event.PlanSkip:
		st = event.Skipped
	}
	r.count(host, st)
	// A host apply would drop drops out of the rest of the plan too.
	switch {
	case st == event.Unreachable:
		r.drop(s, host, "unreachable")
	case st == event.Failed && m.OnFailure != "continue":
		r.drop(s, host, "would fail at "+s.ID())
	}
	return outcome{status: st}
}

// plannedRoom is how many more planned host-steps to make room for when
// the list is full at step s: a plan holds steps x hosts of them, and
// append's growth of a large slice (1.25x) would copy it over and over.
// The room is what the steps planned so far project for the whole run,
// with an eighth to spare, at least doubling the list and at most making
// it eight times as large, and never more than every step on every host
// of the inventory. The caller holds r.mu.
func (r *Runner) plannedRoom(s *program.Step) int {
	n := len(r.planned)
	started, steps := r.order[s]+1, len(r.prog.Steps)
	room := max(n, 64, min(n*steps/started+n/8-n, 7*n))
	if limit := steps*len(r.scope.Hosts) - n; limit > 0 {
		room = min(room, limit)
	}
	return max(room, 1)
}

func planned(s *program.Step, host string, a event.PlanAction, summary string) event.PlannedHost {
	return event.PlannedHost{Step: s.ID(), Host: host, Action: a, Symbol: a.Symbol(), Summary: summary}
}

func planFailed(s *program.Step, host string, a event.PlanAction, summary string, diags hcl.Diagnostics) event.PlannedHost {
	p := planned(s, host, a, summary)
	p.Diagnostics = diags
	return p
}

// dependsOnDirtySince reports whether a step s depends on is planned to
// change or unknown, with clean the number of dirty steps when s was last
// found clean (-1: never): steps only become dirty,
// so while that number is the same the answer is still false, without
// walking s's dependencies. It returns the number the answer was found at.
func (r *Runner) dependsOnDirtySince(s *program.Step, clean int) (bool, int) {
	// Steps only become dirty, and the count is stored under mu after the
	// step is: the same count means nothing became dirty since.
	if n := int(r.ndirty.Load()); n == clean {
		return false, n
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	n := len(r.dirty)
	if n == clean {
		return false, n
	}
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
	return walk(s.Deps), n
}

// unknownResult stands, in what probe returns, for the wholly unknown
// result of the step (cty.UnknownVal of its result type), which planHost
// records by kind. Telling it apart costs a comparison with
// DynamicPseudoType rather than one of the result's object type, which
// walks its attributes (2.5 % of a plan's CPU). No step result is ever
// DynamicVal: results are objects.
var unknownResult = cty.DynamicVal

// probe plans one step on one host and returns the plan and the result
// later steps see, or cty.NilVal when that result is the one the plan's
// action implies: eval.SkippedResult for a skip, eval.PlannedResult for a
// change or no change a module planned, or unknownResult for a wholly
// unknown one. planHost records those by kind, and the value is made
// only if a later step reads it.
func (r *Runner) probe(ctx context.Context, s *program.Step, m program.Meta, host string) (event.PlannedHost, cty.Value) {
	unknown := unknownResult
	se := r.stepEval(s)
	hc := se.on(host)
	if s.When != nil {
		v, diags := se.when(hc)
		switch {
		case diags.HasErrors():
			return planFailed(s, host, event.PlanError, "when: "+diagText(diags), diags), unknown
		case !v.IsKnown():
			return planned(s, host, event.PlanUnknown, "when depends on results of earlier steps"), unknown
		case v.IsNull() || v.Type() != cty.Bool:
			return planned(s, host, event.PlanError, "when must be true or false"), unknown
		case !eval.True(v):
			return planned(s, host, event.PlanSkip, "when is false"), cty.NilVal
		}
	}
	if be, ok := s.Module.(module.BodyEvaluator); ok {
		if se.dependsOnDirty(r) {
			return planned(s, host, event.PlanUnknown, "depends on a step planned to change"), unknown
		}
		_, known, diags := be.EvalBody(s.Body, hc.context())
		switch {
		case diags.HasErrors():
			return planFailed(s, host, event.PlanError, diagText(diags), diags), unknown
		case !known:
			return planned(s, host, event.PlanUnknown, "checked after apply"), unknown
		}
		// Its inputs are known: evaluate it as apply would.
		return r.probeForReal(ctx, s, m, host, "holds")
	}
	sa := se.decodeArgs(hc)
	args, diags, valid := sa.val, sa.decode, sa.validate
	if diags.HasErrors() {
		return planFailed(s, host, event.PlanError, diagText(diags), diags), unknown
	}
	if !sa.known {
		if se.dependsOnDirty(r) {
			return planned(s, host, event.PlanUnknown, "depends on a step planned to change"), unknown
		}
		return planned(s, host, event.PlanUnknown, "arguments depend on results of earlier steps"), unknown
	}
	if valid.HasErrors() {
		return planFailed(s, host, event.PlanError, diagText(valid), valid), unknown
	}
	if sa.typedErr != nil {
		return planned(s, host, event.PlanError, sa.typedErr.Error()), unknown
	}
	// Known arguments: a destructive step that would be refused is certain
	// to fail, even downstream of a change.
	reason, refusal := r.destructive(s, m, args, host)
	if refusal != "" {
		p := planned(s, host, event.PlanWouldFail, refusal)
		p.Destructive = reason
		return p, unknown
	}
	if se.dependsOnDirty(r) {
		p := planned(s, host, event.PlanUnknown, "depends on a step planned to change")
		p.Destructive = reason
		return p, unknown
	}
	var p event.PlannedHost
	var res cty.Value
	switch mod := s.Module.(type) {
	case module.ApplyOnly:
		p, res = planned(s, host, event.PlanNoChange, mod.Reads(args)), unknown
	case module.ReadOnly:
		if c := r.changeBefore(s); c != nil {
			p, res = planned(s, host, event.PlanUnknown, "runs after "+c.ID()+", planned to change"), unknown
			break
		}
		p, res = r.probeForReal(ctx, s, m, host, mod.Reads(args))
	case module.Planner:
		p, res = r.askPlanner(ctx, s, m, mod, sa, host)
	default:
		p, res = planned(s, host, event.PlanError, "module "+s.Module.ID()+" cannot be planned"), unknown
	}
	p.Destructive = reason
	return p, res
}

// changeBefore returns the first step before s planned to change, if any.
func (r *Runner) changeBefore(s *program.Step) *program.Step {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.firstChange != nil && r.order[r.firstChange] < r.order[s] {
		return r.firstChange
	}
	return nil
}

// probeForReal runs a read-only step as apply would (when, retries, until,
// failed_when, changed_when, timeout, become): its commands are probes.
func (r *Runner) probeForReal(ctx context.Context, s *program.Step, m program.Meta, host, summary string) (event.PlannedHost, cty.Value) {
	o := r.applyHost(ctx, s, m, host)
	if o.value == cty.NilVal {
		o.value = resultValue(s.ResultType, host, o.resp, o.status, o.message)
	}
	switch o.status {
	case event.Unreachable:
		return planFailed(s, host, event.PlanUnreachable, o.message, o.resp.Diagnostics), unknownResult
	case event.Failed:
		msg := o.message
		if msg == "" {
			msg = "fails"
		}
		return planFailed(s, host, event.PlanWouldFail, msg, o.resp.Diagnostics), o.value
	case event.Warned:
		return planFailed(s, host, event.PlanNoChange, "would warn: "+o.message, o.resp.Diagnostics), o.value
	case event.Skipped:
		return planned(s, host, event.PlanSkip, o.message), o.value
	case event.Changed:
		// changed_when made a read counting as a change.
		return planned(s, host, event.PlanChange, summary+" (changed_when)"), o.value
	}
	return planned(s, host, event.PlanNoChange, summary), o.value
}

// askPlanner asks a module that may change the host what it would do.
func (r *Runner) askPlanner(ctx context.Context, s *program.Step, m program.Meta, mod module.Planner, sa stepArgs, host string) (event.PlannedHost, cty.Value) {
	unknown := unknownResult
	h := planStreamingHost(s, r.hostOf(&m, host), r.opts.Observer)
	defer h.release()
	pctx := ctx
	if timeout, _ := r.timeoutFor(&m); timeout > 0 {
		var cancel context.CancelFunc
		pctx, cancel = context.WithTimeout(ctx, max(timeout, 30*time.Second))
		defer cancel()
	}
	resp, err := module.CallPlan(pctx, mod, module.PlanRequest{Host: h, Args: sa.val, Typed: sa.typed, BaseDir: r.prog.Runbook.BaseDir})
	if err != nil {
		if module.IsUnreachable(err) {
			return planned(s, host, event.PlanUnreachable, err.Error()), unknown
		}
		return planned(s, host, event.PlanError, err.Error()), unknown
	}
	action := event.PlanNoChange
	switch resp.Action {
	case module.Change:
		action = event.PlanChange
		if s.ChangedWhen != nil {
			// A step declared never to count as changed runs on apply but
			// does not change the host, by the runbook author's word.
			if v, d := s.ChangedWhen.Value(eval.WithEach(r.scope.Base(), s.Each)); !d.HasErrors() && v.IsKnown() && v.Type() == cty.Bool && v.False() {
				return planned(s, host, event.PlanNoChange, "runs on apply; changed_when = false"), unknown
			}
		}
	case module.Unknown:
		action = event.PlanUnknown
	}
	p := planned(s, host, action, resp.Summary)
	for _, c := range resp.Changes {
		p.Changes = append(p.Changes, event.Change(c))
	}
	return p, plannedResult(action)
}

// planStreamingHosts holds the streaming hosts of plan's module calls
// (askPlanner) between calls. A Planner's Plan runs its probes and returns
// (CallPlan): nothing holds the host after it, the output events it made
// hold strings of their own, and the heartbeat a streaming host carries is
// apply's. So plan reuses the host, the largest thing a host-step makes
// (its writers and heartbeat), instead of making one for every host-step.
var planStreamingHosts sync.Pool

// planStreamingHost returns a streaming host of step s over h, to observer
// obs, as hostFor makes, to be released when the module call returns.
func planStreamingHost(s *program.Step, h module.Host, obs event.Observer) *streamingHost {
	sh, _ := planStreamingHosts.Get().(*streamingHost)
	if sh == nil {
		sh = new(streamingHost)
	}
	sh.Host, sh.step, sh.obs = h, s.ID(), obs
	return sh
}

// release puts a host of planStreamingHost back, emptied: a fresh host's
// zero state, holding nothing of the host-step's.
func (h *streamingHost) release() {
	*h = streamingHost{}
	planStreamingHosts.Put(h)
}

// plannedResult is the result later steps see of a step a module planned
// with action a: cty.NilVal (eval.PlannedResult, made when read) for a
// change or no change, unknownResult otherwise.
func plannedResult(a event.PlanAction) cty.Value {
	if a != event.PlanNoChange && a != event.PlanChange {
		return unknownResult
	}
	return cty.NilVal
}
