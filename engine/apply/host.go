package apply

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/provadev/prova/engine/eval"
	"github.com/provadev/prova/engine/event"
	"github.com/provadev/prova/engine/module"
	"github.com/provadev/prova/engine/program"
)

// runHost runs (or plans) the step of se on one host and records the
// outcome.
func (r *Runner) runHost(ctx context.Context, se *stepEval, m program.Meta, host string) outcome {
	s := se.s
	obs := r.opts.Observer
	if r.opts.Mode == ModePlan {
		return r.planHost(ctx, s, m, host)
	}
	obs.Observe(event.HostStarted{Step: s.ID(), Host: host})
	start := time.Now()
	o := r.applyEval(ctx, se, m, host)
	var result map[string]any
	st := r.hosts.get(host, true)
	switch {
	case o.value == cty.NilVal && commonOnly(s.ResultType):
		// Most results are never read by a later step: the event's JSON
		// is made directly and the cty object only when read.
		result = commonJSON(st.name, o.resp, o.status, o.message)
		// What the result is made of, by kind: a later step's
		// step.<name>.stdout reads it without the object being made.
		r.results.SetApplied(s.Name, host, s.ResultType, appliedOf(o))
	default:
		if o.value == cty.NilVal {
			o.value = resultValue(s.ResultType, host, o.resp, o.status, o.message)
		}
		r.results.Set(s.Name, host, o.value)
		result = jsonResult(o.value)
	}
	st.count(o.status)
	sev := ""
	if _, ok := s.Module.(module.BodyEvaluator); ok {
		sev = m.Severity
	}
	obs.Observe(event.HostFinished{Step: s.ID(), Host: host, Status: o.status, Message: o.message,
		Duration: time.Since(start), Diagnostics: o.resp.Diagnostics, Result: result,
		Evidence: o.resp.Evidence, Checks: checksFor(s.ID(), o.resp.Checks, o.status), Severity: sev, GaveUp: o.gaveUp})
	switch {
	case o.status == event.Unreachable:
		r.drop(s, host, "unreachable")
	case o.status == event.Failed && m.OnFailure != "continue":
		r.drop(s, host, "failed at "+s.ID())
	}
	return o
}

// hostFor is the streaming host of step s on host name, for one module
// call. The host's own is reused (reset for s) when its previous step gave
// it back (keepHost); a host whose own is taken gets a new one.
func (r *Runner) hostFor(s *program.Step, m program.Meta, name string) *streamingHost {
	if st := r.hosts.get(name, false); st != nil {
		if sh := st.stream.Swap(nil); sh != nil {
			sh.reset(r.hostOf(m, name), s.ID())
			return sh
		}
	}
	return newStreamingHost(r.hostOf(m, name), s.ID(), r.opts.Observer)
}

// keepHost gives sh back to its host for the next step, unless a command
// of the module's is still running on it (a module that returned while a
// goroutine of its runs one): that one keeps sh to itself, and the next
// step gets a new host.
func (r *Runner) keepHost(name string, sh *streamingHost) {
	if sh.runs.Load() != 0 {
		return
	}
	if st := r.hosts.get(name, false); st != nil {
		st.stream.Store(sh)
	}
}

// hostOf is the host a step's module runs its commands on, before its
// output is streamed (hostFor): become's when the step says become.
func (r *Runner) hostOf(m program.Meta, name string) module.Host {
	h := r.opts.Host(name)
	if m.Become && r.opts.Become != nil {
		h = r.opts.Become(h, m.BecomeUser)
	}
	return h
}

// applyHost runs step s on host (plan's probes of read-only steps).
func (r *Runner) applyHost(ctx context.Context, s *program.Step, m program.Meta, host string) outcome {
	return r.applyEval(ctx, r.stepEval(s), m, host)
}

// applyEval runs the step of se on host: when, the attempts under the
// step's timeout, retries, until, changed_when and failed_when.
func (r *Runner) applyEval(ctx context.Context, se *stepEval, m program.Meta, host string) outcome {
	s := se.s
	hc := se.on(host)
	if s.When != nil {
		ok, diags := se.whenHolds(hc)
		if diags.HasErrors() {
			return outcome{status: event.Failed, message: "when: " + diagText(diags), resp: module.ApplyResponse{Diagnostics: diags}}
		}
		if !ok {
			return outcome{status: event.Skipped, message: "when is false"}
		}
	}
	h := r.hostFor(s, m, host)
	defer r.keepHost(host, h)
	retries := m.Retries
	switch {
	case retries >= 0: // set, 0 included: that many retries
	case s.Until != nil:
		retries = program.DefaultUntilRetries
	default:
		retries = 0
	}
	var o outcome
	for attempt := 1; ; attempt++ {
		o = r.attempt(ctx, se, m, h, hc)
		if o.status == event.Unreachable || ctx.Err() != nil {
			return o
		}
		if s.Until != nil || s.ChangedWhen != nil || s.FailedWhen != nil {
			// They see the result as self; otherwise runHost makes it.
			o.value = resultValue(s.ResultType, host, o.resp, o.status, o.message)
		}
		o = r.judge(se, o, host)
		retry := o.status == event.Failed
		if !retry && s.Until != nil {
			ok, diags := condition(s.Until, se.host(host, o.value), "until")
			if diags.HasErrors() {
				o.status, o.message = event.Failed, "until: "+diagText(diags)
				o.resp.Diagnostics = append(o.resp.Diagnostics, diags...)
				o.value = cty.NilVal
				return o
			}
			if !ok {
				retry = true
				if attempt > retries {
					msg := fmt.Sprintf("gave up waiting: until still false after %d attempt%s", attempt, plural(attempt))
					o.gaveUp = true
					if s.FailedWhen != nil {
						// failed_when decides: a probe may wait for a state
						// and still report what it found without failing.
						if o.message == "" {
							o.message = msg
						} else {
							o.message = msg + ": " + o.message
						}
						o.value = resultValue(s.ResultType, host, o.resp, o.status, o.message)
						return o
					}
					o.status, o.message = event.Failed, msg
					o.value = cty.NilVal
				}
			}
		}
		if !retry || attempt > retries {
			return o
		}
		r.opts.Observer.Observe(event.Retry{Step: s.ID(), Host: host, Attempt: attempt, Delay: m.Delay, Reason: o.message})
		if !sleep(ctx, m.Delay) {
			return outcome{status: event.Failed, message: "interrupted during retry delay"}
		}
	}
}

// attempt runs the module once, under the step's timeout.
func (r *Runner) attempt(ctx context.Context, se *stepEval, m program.Meta, h module.Host, hc *onHost) outcome {
	s := se.s
	actx := ctx
	timeout, from := r.timeoutFor(m)
	if timeout > 0 {
		// A context.WithTimeout's cost (a timer, a registration with the
		// run's context under its mutex) only when a module asks for its
		// Done channel: sshconn watches the deadline per connection.
		a := module.NewAttempt(ctx, time.Now().Add(timeout))
		defer a.End()
		actx = a
	}
	if be, ok := s.Module.(module.BodyEvaluator); ok {
		resp, known, diags := be.EvalBody(s.Body, hc.context())
		if diags.HasErrors() {
			return outcome{status: event.Failed, message: diagText(diags), resp: module.ApplyResponse{Diagnostics: diags}}
		}
		if !known {
			return outcome{status: event.Failed, message: "the assertion depends on values that are still unknown"}
		}
		return statusOf(resp, m)
	}
	sa := se.decodeArgs(hc)
	args := sa.val
	diags := append(sa.decode[:len(sa.decode):len(sa.decode)], sa.validate...)
	if diags.HasErrors() {
		return outcome{status: event.Failed, message: diagText(diags), resp: module.ApplyResponse{Diagnostics: diags}}
	}
	if !sa.known {
		return outcome{status: event.Failed, message: "arguments still unknown at apply time"}
	}
	if sa.typedErr != nil {
		return outcome{status: event.Failed, message: sa.typedErr.Error()}
	}
	if _, refusal := r.destructive(s, m, args, h.Name()); refusal != "" {
		return outcome{status: event.Failed, message: refusal}
	}
	planned, err := r.lockFor(actx, s, module.PlanRequest{Host: h, Args: args, Typed: sa.typed, BaseDir: r.prog.Runbook.BaseDir})
	if err != nil {
		return outcome{status: event.Failed, message: err.Error()}
	}
	hb := r.startHeartbeat(h, s.ID(), timeout)
	resp, err := module.CallApply(actx, s.Module, module.ApplyRequest{Host: h, Args: args, Typed: sa.typed, BaseDir: r.prog.Runbook.BaseDir,
		Progress: hb.progress, Planned: planned})
	hb.stop()
	if err != nil {
		switch {
		case module.IsUnreachable(err):
			return outcome{status: event.Unreachable, message: err.Error(), resp: resp}
		case errors.Is(actx.Err(), context.DeadlineExceeded) && ctx.Err() == nil:
			return outcome{status: event.Failed, message: timedOut(h.Name(), timeout, from), resp: resp}
		case ctx.Err() != nil:
			return outcome{status: event.Failed, message: "interrupted", resp: resp}
		}
		return outcome{status: event.Failed, message: err.Error(), resp: resp}
	}
	return statusOf(resp, m)
}

func statusOf(resp module.ApplyResponse, m program.Meta) outcome {
	switch {
	case resp.Failed && m.Severity == "warn":
		// A warn-level assertion reports its diagnostics as warnings.
		for _, d := range resp.Diagnostics {
			if d.Severity == hcl.DiagError {
				d.Severity = hcl.DiagWarning
			}
		}
		return outcome{status: event.Warned, message: resp.Message, resp: resp}
	case resp.Failed:
		return outcome{status: event.Failed, message: resp.Message, resp: resp}
	case resp.Changed:
		return outcome{status: event.Changed, message: resp.Message, resp: resp}
	}
	return outcome{status: event.OK, message: resp.Message, resp: resp}
}

// judge applies changed_when and failed_when, which see the result as self.
func (r *Runner) judge(se *stepEval, o outcome, host string) outcome {
	s := se.s
	if s.ChangedWhen == nil && s.FailedWhen == nil {
		return o
	}
	self := se.host(host, o.value)
	if s.FailedWhen != nil {
		failed, diags := condition(s.FailedWhen, self, "failed_when")
		switch {
		case diags.HasErrors():
			o.status, o.message = event.Failed, "failed_when: "+diagText(diags)
			o.resp.Diagnostics = append(o.resp.Diagnostics, diags...)
		case failed:
			o.status = event.Failed
			if o.message == "" {
				o.message = "failed_when is true"
			}
		case o.status == event.Failed:
			o.status, o.message = event.OK, ""
		}
	}
	if s.ChangedWhen != nil && o.status != event.Failed {
		changed, diags := condition(s.ChangedWhen, self, "changed_when")
		switch {
		case diags.HasErrors():
			o.status, o.message = event.Failed, "changed_when: "+diagText(diags)
		case changed:
			o.status = event.Changed
		default:
			o.status = event.OK
		}
	}
	o.resp.Changed = o.status == event.Changed
	o.value = resultValue(s.ResultType, host, o.resp, o.status, o.message)
	return o
}

// condition evaluates a boolean meta-argument (failed_when, changed_when,
// until): with eval.Value, which gives hcl's value and diagnostics and
// evaluates a for expression over a result's elements once per distinct
// input.
func condition(e hcl.Expression, ctx *hcl.EvalContext, what string) (bool, hcl.Diagnostics) {
	v, diags := eval.Value(e, ctx)
	return checkCondition(v, diags, e, ctx, what)
}

// checkCondition checks the value v (with diags) of a boolean
// meta-argument e evaluated in ctx.
func checkCondition(v cty.Value, diags hcl.Diagnostics, e hcl.Expression, ctx *hcl.EvalContext, what string) (bool, hcl.Diagnostics) {
	if diags.HasErrors() {
		return false, diags
	}
	if !v.IsKnown() || v.IsNull() || v.Type() != cty.Bool {
		return false, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Invalid " + what,
			Detail: what + " must be true or false here.", Subject: e.Range().Ptr(), Expression: e, EvalContext: ctx}}
	}
	return v.True(), nil
}

func diagText(diags hcl.Diagnostics) string {
	for _, d := range diags {
		if d.Severity == hcl.DiagError {
			if d.Subject != nil {
				return fmt.Sprintf("%s: %s (%s)", d.Summary, d.Detail, d.Subject)
			}
			return d.Summary + ": " + d.Detail
		}
	}
	return diags.Error()
}

// timeoutFor is the bound of one attempt of a step: its own timeout, else
// the run-wide one (Options.StepTimeout), with where it was set.
func (r *Runner) timeoutFor(m program.Meta) (time.Duration, string) {
	if m.Timeout > 0 {
		return m.Timeout, "the step's timeout"
	}
	return r.opts.StepTimeout, r.opts.StepTimeoutFrom
}

// timedOut is the message of a host-step whose attempt ran out of time: it
// names the host that hung and the setting that bounded it.
func timedOut(host string, timeout time.Duration, from string) string {
	if from == "" {
		from = "the step timeout"
	}
	return fmt.Sprintf("timed out after %s (%s): %s did not answer in time; the host or its command hung", timeout, from, host)
}

// appliedOf is what resultValue makes the result of o of, for a result
// type of the common attributes only (commonOnly).
func appliedOf(o outcome) eval.Applied {
	return eval.Applied{Changed: o.status == event.Changed, Failed: o.status == event.Failed || o.status == event.Unreachable,
		Skipped: o.status == event.Skipped, RC: o.resp.RC, Stdout: o.resp.Stdout, Stderr: o.resp.Stderr, Message: o.message}
}
