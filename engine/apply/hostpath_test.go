package apply

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hcldec"
	"github.com/zclconf/go-cty/cty"

	"github.com/provadev/prova/engine/eval"
	"github.com/provadev/prova/engine/event"
	"github.com/provadev/prova/engine/module"
	"github.com/provadev/prova/engine/program"
)

// holdsModule is an assertion module of the tests' own: it evaluates its
// body's `that` (module.BodyEvaluator), failing when that is false.
type holdsModule struct{ cmdModule }

func (holdsModule) ID() string { return "holds" }
func (holdsModule) Spec() hcldec.Spec {
	return &hcldec.ObjectSpec{"that": &hcldec.AttrSpec{Name: "that", Type: cty.Bool, Required: true}}
}
func (holdsModule) EvalBody(body hcl.Body, ectx *hcl.EvalContext) (module.ApplyResponse, bool, hcl.Diagnostics) {
	attrs, diags := body.JustAttributes()
	if diags.HasErrors() {
		return module.ApplyResponse{}, true, diags
	}
	v, diags := attrs["that"].Expr.Value(ectx)
	switch {
	case diags.HasErrors():
		return module.ApplyResponse{}, true, diags
	case !v.IsKnown():
		return module.ApplyResponse{}, false, nil
	case v.Type() != cty.Bool || v.IsNull():
		return module.ApplyResponse{}, true, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "that is not a bool"}}
	case v.False():
		return module.ApplyResponse{Failed: true, Message: "does not hold",
			Diagnostics: hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "does not hold"}}}, true, nil
	}
	return module.ApplyResponse{Message: "holds"}, true, nil
}

// The host-step path split for a worker's stack (runHost, applyEval,
// attempt and the functions they hand their work to) gives the outcome,
// the commands and the events the path before the split gave
// (oldApplyEval, kept here verbatim but for the pointer arguments of the
// helpers it calls), on steps that go through every branch: when, the
// module's failure and change, unreachable hosts, timeouts, retries with
// and without until, until given up with and without failed_when,
// changed_when, argument errors, a destructive step refused, an assertion
// that holds, fails, fails at warn, cannot be evaluated or is unknown.
func TestHostPathIsThePathBeforeTheSplit(t *testing.T) {
	const src = `
step "cmd" "plain" { command = "echo x" }
step "cmd" "fails" {
  command    = "fail-on n1"
  on_failure = "continue"
}
step "cmd" "when_false" {
  when    = host.name == "n2"
  command = "echo w"
}
step "cmd" "when_bad" {
  when    = "yes"
  command = "echo w"
}
step "cmd" "until_ok" {
  retries = 5
  delay   = "0s"
  until   = self.rc == 0
  command = "succeed-after 3"
}
step "cmd" "until_gives_up" {
  retries = 1
  delay   = "0s"
  until   = self.rc == 0
  command = "succeed-after 9"
}
step "cmd" "until_gives_up_failed_when" {
  retries     = 1
  delay       = "0s"
  until       = self.rc == 0
  failed_when = false
  command     = "succeed-after 9"
}
step "cmd" "until_bad" {
  retries = 1
  until   = "maybe"
  command = "echo u"
}
step "cmd" "retries_exhausted" {
  retries = 2
  delay   = "0s"
  command = "succeed-after 9"
}
step "cmd" "retries_none" {
  retries = 0
  command = "succeed-after 2"
}
step "cmd" "changed_when" {
  changed_when = false
  command      = "echo c"
}
step "cmd" "failed_when" {
  failed_when = self.rc == 0 && length(self.lines) > 0
  command     = "echo f"
}
step "cmd" "failed_when_bad" {
  failed_when = "nope"
  command     = "echo f"
}
step "cmd" "times_out" {
  timeout = "10ms"
  command = "block"
}
step "cmd" "bad_args" { command = ["not", "a", "string"] }
step "wipe" "refused" {
  command = "wipe"
  device  = "/dev/sdz"
}
step "holds" "holds_ok" { that = host.name != "" }
step "holds" "holds_fails" { that = host.name == "nobody" }
step "holds" "holds_warns" {
  severity = "warn"
  that     = host.name == "nobody"
}
step "holds" "holds_bad" { that = "x" + 1 }
`
	hosts := []string{"n1", "n2", "n3"}
	newSide := newRun(t, src, hosts, ModeApply)
	oldSide := newRun(t, src, hosts, ModeApply)
	for _, s := range []*setup{newSide, oldSide} {
		s.fleet.unreachable["n3"] = true
		s.fleet.hook = func(host, cmd string) {}
	}
	ctx := context.Background()
	for i, st := range newSide.r.prog.Steps {
		m, diags := program.EvalMeta(st, eval.WithEach(newSide.r.scope.Base(), st.Each), false)
		if diags.HasErrors() {
			t.Fatalf("%s: meta: %s", st.ID(), diags.Error())
		}
		ost := oldSide.r.prog.Steps[i]
		nse, ose := newSide.r.stepEval(st), oldSide.r.stepEval(ost)
		for _, h := range hosts {
			var got outcome
			newSide.r.applyEval(ctx, nse, &m, h, &got)
			want := oldSide.r.oldApplyEval(ctx, ose, m, h)
			if d := outcomeDiff(got, want); d != "" {
				t.Errorf("%s on %s: %s", st.ID(), h, d)
			}
		}
	}
	if got, want := newSide.fleet.commands(), oldSide.fleet.commands(); !reflect.DeepEqual(got, want) {
		t.Errorf("commands:\n got %q\nwant %q", got, want)
	}
	if got, want := fmt.Sprintf("%+v", newSide.ev.all()), fmt.Sprintf("%+v", oldSide.ev.all()); got != want {
		t.Errorf("events:\n got %s\nwant %s", got, want)
	}
	// The steps above went through every way out of the path.
	seen := map[event.Status]bool{}
	for _, st := range newSide.r.prog.Steps {
		m, _ := program.EvalMeta(st, eval.WithEach(newSide.r.scope.Base(), st.Each), false)
		for _, h := range hosts {
			var o outcome
			newSide.r.applyEval(ctx, newSide.r.stepEval(st), &m, h, &o)
			seen[o.status] = true
		}
	}
	for _, s := range []event.Status{event.OK, event.Changed, event.Failed, event.Warned, event.Skipped, event.Unreachable} {
		if !seen[s] {
			t.Errorf("no host-step ended %s", s)
		}
	}
}

// outcomeDiff says how two outcomes differ, "" if they do not: results
// by cty's RawEquals, diagnostics by their text (their evaluation
// contexts are each run's own).
func outcomeDiff(got, want outcome) string {
	switch {
	case got.status != want.status || got.message != want.message || got.gaveUp != want.gaveUp:
		return fmt.Sprintf("status/message/gave up %s %q %v, want %s %q %v", got.status, got.message, got.gaveUp, want.status, want.message, want.gaveUp)
	case !sameValue(got.value, want.value):
		return fmt.Sprintf("value %#v, want %#v", got.value, want.value)
	case !sameValue(got.resp.Outputs, want.resp.Outputs):
		return fmt.Sprintf("outputs %#v, want %#v", got.resp.Outputs, want.resp.Outputs)
	case diagsText(got.resp.Diagnostics) != diagsText(want.resp.Diagnostics):
		return fmt.Sprintf("diagnostics %s, want %s", diagsText(got.resp.Diagnostics), diagsText(want.resp.Diagnostics))
	}
	g, w := got.resp, want.resp
	g.Outputs, w.Outputs, g.Diagnostics, w.Diagnostics = cty.NilVal, cty.NilVal, nil, nil
	if !reflect.DeepEqual(g, w) {
		return fmt.Sprintf("response %+v, want %+v", g, w)
	}
	return ""
}

func sameValue(a, b cty.Value) bool {
	if a == cty.NilVal || b == cty.NilVal {
		return a == cty.NilVal && b == cty.NilVal
	}
	return a.RawEquals(b)
}

func diagsText(ds hcl.Diagnostics) string {
	s := ""
	for _, d := range ds {
		s += fmt.Sprintf("[%d %s: %s @%v]", d.Severity, d.Summary, d.Detail, d.Subject)
	}
	return s
}

// oldApplyEval, oldAttempt and oldStatusOf are applyEval, attempt and
// statusOf as they were before the host-step path was split (main at
// acc6de9, verbatim but for the pointer arguments of the helpers they
// call), for TestHostPathIsThePathBeforeTheSplit.
func (r *Runner) oldApplyEval(ctx context.Context, se *stepEval, m program.Meta, host string) outcome {
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
	h := r.hostFor(s, &m, host)
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
		o = r.oldAttempt(ctx, se, m, h, hc)
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

func (r *Runner) oldAttempt(ctx context.Context, se *stepEval, m program.Meta, h module.Host, hc *onHost) outcome {
	s := se.s
	actx := ctx
	timeout, from := r.timeoutFor(&m)
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
		return oldStatusOf(resp, m)
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
	return oldStatusOf(resp, m)
}

func oldStatusOf(resp module.ApplyResponse, m program.Meta) outcome {
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
