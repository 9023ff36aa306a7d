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
// outcome. Its frame, and those of applyEval and attempt, stay on a fork
// worker's stack while the module's command runs, so they are kept small:
// the outcome and the step's Meta go by pointer, and what is done before
// and after the command (when, the arguments and the lock, the judging and
// the retries, the result and its event) is in functions of its own
// (whenRuns, prepare, evalBody, retryOf, finishHost). A worker parked on a
// command then holds a stack of 8 KiB, not 16
// (TestWorkerStackWhileACommandRuns; docs/performance.md, "Peak RSS (ninth
// round)" and the fifteenth round). What o points at is live for the whole
// path, retry delays included: applyEval drops an attempt's outcome before
// the delay (TestRetryDelayDropsTheAttemptsOutput).
func (r *Runner) runHost(ctx context.Context, se *stepEval, m *program.Meta, host string) event.Status {
	if r.opts.Mode == ModePlan {
		return r.planStatus(ctx, se.s, m, host)
	}
	r.opts.Observer.Observe(event.HostStarted{Step: se.s.ID(), Host: host})
	start := time.Now()
	var o outcome
	r.applyEval(ctx, se, m, host, &o)
	r.finishHost(se.s, m, host, start, &o)
	return o.status
}

// planStatus plans s on host (runHost in plan mode). Not inlined: the
// stack room planHost's arguments and outcome take would be runHost's.
//
//go:noinline
func (r *Runner) planStatus(ctx context.Context, s *program.Step, m *program.Meta, host string) event.Status {
	return r.planHost(ctx, s, *m, host).status
}

// finishHost records o, the outcome of s on host that started at start:
// the step's result, the host's tally, the HostFinished event, and the
// host dropped from the run when o says so.
func (r *Runner) finishHost(s *program.Step, m *program.Meta, host string, start time.Time, o *outcome) {
	var result map[string]any
	st := r.hosts.get(host, true)
	switch {
	case o.value == cty.NilVal && commonOnly(s.ResultType):
		// Most results are never read by a later step: the event's JSON
		// is made directly and the cty object only when read.
		result = commonJSON(st.name, o.resp, o.status, o.message)
		// What the result is made of, by kind: a later step's
		// step.<name>.stdout reads it without the object being made.
		r.results.SetApplied(s.Name, host, s.ResultType, appliedOf(*o))
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
	r.opts.Observer.Observe(event.HostFinished{Step: s.ID(), Host: host, Status: o.status, Message: o.message,
		Duration: time.Since(start), Diagnostics: o.resp.Diagnostics, Result: result,
		Evidence: o.resp.Evidence, Checks: checksFor(s.ID(), o.resp.Checks, o.status), Severity: sev, GaveUp: o.gaveUp})
	switch {
	case o.status == event.Unreachable:
		r.drop(s, host, "unreachable")
	case o.status == event.Failed && m.OnFailure != "continue":
		r.drop(s, host, "failed at "+s.ID())
	}
}

// hostFor is the streaming host of step s on host name, for one module
// call. The host's own is reused (reset for s) when its previous step gave
// it back (keepHost); a host whose own is taken gets a new one.
func (r *Runner) hostFor(s *program.Step, m *program.Meta, name string) *streamingHost {
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
func (r *Runner) hostOf(m *program.Meta, name string) module.Host {
	h := r.opts.Host(name)
	if m.Become && r.opts.Become != nil {
		h = r.opts.Become(h, m.BecomeUser)
	}
	return h
}

// applyHost runs step s on host (plan's probes of read-only steps).
func (r *Runner) applyHost(ctx context.Context, s *program.Step, m program.Meta, host string) outcome {
	var o outcome
	r.applyEval(ctx, r.stepEval(s), &m, host, &o)
	return o
}

// applyEval runs the step of se on host into o: when, the attempts under
// the step's timeout, retries, until, changed_when and failed_when.
func (r *Runner) applyEval(ctx context.Context, se *stepEval, m *program.Meta, host string, o *outcome) {
	*o = outcome{}
	s := se.s
	hc := se.on(host)
	if s.When != nil && !se.whenRuns(hc, o) {
		return
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
	for attempt := 1; ; attempt++ {
		r.attempt(ctx, se, m, h, hc, o)
		if o.status == event.Unreachable || ctx.Err() != nil {
			return
		}
		if !r.retryOf(se, m, host, attempt, retries, o) {
			return
		}
		// The attempt's outcome is dropped before the delay: o is live
		// across it, and a host waiting out its delay (which holds no
		// fork) would otherwise keep the attempt's output reachable, for
		// as many hosts as are waiting (at 1,000 nodes, verbs_conn's
		// waits held every host's mmfsadm output: a peak of 859 MB
		// against 509).
		*o = outcome{}
		if !sleep(ctx, m.Delay) {
			o.fail("interrupted during retry delay")
			return
		}
	}
}

// whenRuns evaluates the step's when on a host: false, with o set (skipped,
// or failed when it cannot be evaluated), when the step does not run there.
func (se *stepEval) whenRuns(hc *onHost, o *outcome) bool {
	ok, diags := se.whenHolds(hc)
	if diags.HasErrors() {
		*o = outcome{status: event.Failed, message: "when: " + diagText(diags), resp: module.ApplyResponse{Diagnostics: diags}}
		return false
	}
	if !ok {
		*o = outcome{status: event.Skipped, message: "when is false"}
		return false
	}
	return true
}

// retryOf judges o, the outcome of attempt number attempt on host, by
// failed_when, changed_when and until, and reports whether the step is to
// be tried again (at most retries times after the first): then the retry
// is observed, and the caller waits the step's delay.
func (r *Runner) retryOf(se *stepEval, m *program.Meta, host string, attempt, retries int, o *outcome) bool {
	s := se.s
	if s.Until != nil || s.ChangedWhen != nil || s.FailedWhen != nil {
		// They see the result as self; otherwise runHost makes it.
		o.value = resultValue(s.ResultType, host, o.resp, o.status, o.message)
	}
	*o = r.judge(se, *o, host)
	retry := o.status == event.Failed
	if !retry && s.Until != nil {
		ok, diags := condition(s.Until, se.host(host, o.value), "until")
		if diags.HasErrors() {
			o.status, o.message = event.Failed, "until: "+diagText(diags)
			o.resp.Diagnostics = append(o.resp.Diagnostics, diags...)
			o.value = cty.NilVal
			return false
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
					return false
				}
				o.status, o.message = event.Failed, msg
				o.value = cty.NilVal
			}
		}
	}
	if !retry || attempt > retries {
		return false
	}
	r.opts.Observer.Observe(event.Retry{Step: s.ID(), Host: host, Attempt: attempt, Delay: m.Delay, Reason: o.message})
	return true
}

// attempt runs the module once on h, under the step's timeout, into o.
func (r *Runner) attempt(ctx context.Context, se *stepEval, m *program.Meta, h module.Host, hc *onHost, o *outcome) {
	*o = outcome{}
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
		evalBody(be, s, m, hc, o)
		return
	}
	var req module.ApplyRequest
	if !r.prepare(actx, se, m, h, hc, &req, o) {
		return
	}
	hb := r.startHeartbeat(h, s.ID(), timeout)
	req.Progress = hb.progress
	var err error
	o.resp, err = module.CallApply(actx, s.Module, req)
	hb.stop()
	if err != nil {
		o.status, o.message = event.Failed, err.Error()
		switch {
		case module.IsUnreachable(err):
			o.status = event.Unreachable
		case errors.Is(actx.Err(), context.DeadlineExceeded) && ctx.Err() == nil:
			o.message = timedOut(h.Name(), timeout, from)
		case ctx.Err() != nil:
			o.message = "interrupted"
		}
		return
	}
	o.fromResponse(m.Severity)
}

// evalBody runs an assertion step (a module that evaluates its own body)
// into o.
func evalBody(be module.BodyEvaluator, s *program.Step, m *program.Meta, hc *onHost, o *outcome) {
	resp, known, diags := be.EvalBody(s.Body, hc.context())
	switch {
	case diags.HasErrors():
		*o = outcome{status: event.Failed, message: diagText(diags), resp: module.ApplyResponse{Diagnostics: diags}}
	case !known:
		*o = outcome{status: event.Failed, message: "the assertion depends on values that are still unknown"}
	default:
		o.resp = resp
		o.fromResponse(m.Severity)
	}
}

// prepare decodes and checks the step's arguments on h and takes the
// step's lock, into req; when the attempt cannot run it sets o and
// reports false.
func (r *Runner) prepare(actx context.Context, se *stepEval, m *program.Meta, h module.Host, hc *onHost, req *module.ApplyRequest, o *outcome) bool {
	s := se.s
	sa := se.decodeArgs(hc)
	args := sa.val
	diags := append(sa.decode[:len(sa.decode):len(sa.decode)], sa.validate...)
	switch {
	case diags.HasErrors():
		*o = outcome{status: event.Failed, message: diagText(diags), resp: module.ApplyResponse{Diagnostics: diags}}
		return false
	case !sa.known:
		*o = outcome{status: event.Failed, message: "arguments still unknown at apply time"}
		return false
	case sa.typedErr != nil:
		*o = outcome{status: event.Failed, message: sa.typedErr.Error()}
		return false
	}
	if _, refusal := r.destructive(s, *m, args, h.Name()); refusal != "" {
		*o = outcome{status: event.Failed, message: refusal}
		return false
	}
	planned, err := r.lockFor(actx, s, module.PlanRequest{Host: h, Args: args, Typed: sa.typed, BaseDir: r.prog.Runbook.BaseDir})
	if err != nil {
		*o = outcome{status: event.Failed, message: err.Error()}
		return false
	}
	*req = module.ApplyRequest{Host: h, Args: args, Typed: sa.typed, BaseDir: r.prog.Runbook.BaseDir, Planned: planned}
	return true
}

func statusOf(resp module.ApplyResponse, m program.Meta) outcome {
	o := outcome{resp: resp}
	o.fromResponse(m.Severity)
	return o
}

// fromResponse sets o's status and message from its module response,
// o.resp, read with the step's severity ("warn": a failure is a warning).
func (o *outcome) fromResponse(severity string) {
	resp := &o.resp
	switch {
	case resp.Failed && severity == "warn":
		// A warn-level assertion reports its diagnostics as warnings.
		for _, d := range resp.Diagnostics {
			if d.Severity == hcl.DiagError {
				d.Severity = hcl.DiagWarning
			}
		}
		o.status = event.Warned
	case resp.Failed:
		o.status = event.Failed
	case resp.Changed:
		o.status = event.Changed
	default:
		o.status = event.OK
	}
	o.message = resp.Message
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
func (r *Runner) timeoutFor(m *program.Meta) (time.Duration, string) {
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
