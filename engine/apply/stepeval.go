package apply

import (
	"sync"
	"sync/atomic"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hcldec"
	"github.com/zclconf/go-cty/cty"

	"github.com/provadev/prova/engine/eval"
	"github.com/provadev/prova/engine/module"
	"github.com/provadev/prova/engine/program"
)

// stepEval evaluates one step's expressions for each of its hosts. What
// does not depend on the host is evaluated once per step, by the first
// host that needs it, and shared: the module arguments (decoded,
// validated and decoded into the module's argument struct) and when. An expression depends on the host when it reads
// host.* or self, or this host's step.* results (eval.Refs.VaryByHost).
// Values and diagnostics it shares are read-only.
type stepEval struct {
	s    *program.Step
	spec hcldec.Spec // the module's, asked once

	// scope is the step's evaluation scope, made when first asked
	// (stepScope): a step that needs none on any host (a run_once
	// assertion downstream of a planned change, which plan does not
	// evaluate) never makes its per_host maps. Steps reading per_host run
	// after their dependencies have finished on every host (free's
	// barrier), so when it is made does not change what it holds.
	scopeOnce sync.Once
	scope     *eval.StepScope
	newScope  func() *eval.StepScope

	whenPerHost, argsPerHost bool
	// split decodes per-host arguments attribute by attribute (nil: the
	// whole body on every host), and typed their struct field by field
	// (nil: whole on every host).
	split *splitArgs
	typed *splitTyped
	// structArgs: a step of a module.StructArgs module (not Destructive,
	// not a ClusterModule) whose per-host arguments split and decode field
	// by field; its hosts' arguments are decoded into the struct alone
	// where they can be (decodeStruct), without their cty object, in plan
	// and in apply alike (the module's Plan and Apply read the struct
	// alone).
	structArgs bool

	whenOnce  sync.Once
	whenVal   cty.Value
	whenDiags hcl.Diagnostics

	// whenMemo and argsMemo keep the value of a when and of the arguments
	// that differ per host but read what many hosts share (host.groups,
	// host.vars.rack, an earlier step's result): each is evaluated once
	// per distinct input (eval.ExprMemo, by operand; eval.Memo, nil when
	// the inputs name one host each).
	whenMemo *eval.ExprMemo
	argsMemo *eval.Memo[stepArgs]

	argsOnce sync.Once
	args     stepArgs

	dirty atomic.Bool // a dependency is planned to change (plan; once true, stays)
	// cleanAt is how many steps were dirty when the step was last found
	// not to depend on one (-1: not asked yet).
	cleanAt atomic.Int64
}

// stepEval returns the evaluator of step s, making it when the step's
// first host asks: the step's dependencies have finished by then, so their
// per_host results are final.
func (r *Runner) stepEval(s *program.Step) *stepEval {
	// Read without the lock: every host-step of the run asks.
	if se, ok := r.evals.Load(s.Name); ok {
		return se.(*stepEval)
	}
	r.evalMu.Lock()
	defer r.evalMu.Unlock()
	if se, ok := r.evals.Load(s.Name); ok {
		return se.(*stepEval)
	}
	// Plan too has real per-host results: read-only steps run for real,
	// the others leave unknown or partly known results.
	se := &stepEval{s: s, newScope: func() *eval.StepScope {
		return r.scope.Step(r.results, eval.RefsOf(s.References()), s.Each)
	}}
	se.cleanAt.Store(-1)
	if s.When != nil {
		refs := s.When.Variables()
		if se.whenPerHost = eval.RefsOf(refs).VaryByHost(); se.whenPerHost {
			se.whenMemo = eval.NewExprMemo(se.stepScope(), s.When)
		}
	}
	if se.spec = s.ModuleSpec(); se.spec != nil {
		refs := s.BodyReferences()
		se.argsPerHost = eval.RefsOf(refs).VaryByHost()
		if se.argsPerHost {
			se.split = newSplitArgs(s.Body, se.spec, se.stepScope())
			se.argsMemo = eval.NewMemo[stepArgs](se.stepScope(), refs)
		}
		if se.split != nil {
			keys := make([]string, len(se.split.hostAttrs))
			for i, ha := range se.split.hostAttrs {
				keys[i] = ha.key
			}
			se.typed = newSplitTyped(s.Module, keys)
		}
		_, structArgs := s.Module.(module.StructArgs)
		_, destructive := s.Module.(module.Destructive)
		_, cluster := s.Module.(module.ClusterModule)
		se.structArgs = structArgs && !destructive && !cluster && se.typed != nil
	}
	r.evals.Store(s.Name, se)
	return se
}

// stepScope returns the step's scope, making it on the first call.
func (se *stepEval) stepScope() *eval.StepScope {
	se.scopeOnce.Do(func() {
		if se.scope == nil {
			se.scope = se.newScope()
		}
	})
	return se.scope
}

// onHost is one host's view of a step. Its context is built when an
// evaluation first needs it: what a memo already holds needs none.
type onHost struct {
	se   *stepEval
	host string
	ctx  *hcl.EvalContext
}

// on returns the view of the step on host.
func (se *stepEval) on(host string) *onHost { return &onHost{se: se, host: host} }

// context returns the context the step sees on the host (without self).
func (h *onHost) context() *hcl.EvalContext {
	if h.ctx == nil {
		h.ctx = h.se.stepScope().Host(h.host, cty.NilVal)
	}
	return h.ctx
}

// host returns the context the step sees on host with self, the step's own
// result (until, changed_when, failed_when).
func (se *stepEval) host(host string, self cty.Value) *hcl.EvalContext {
	return se.stepScope().Host(host, self)
}

// when evaluates the step's when condition (which must be set) on h.
func (se *stepEval) when(h *onHost) (cty.Value, hcl.Diagnostics) {
	if se.whenPerHost {
		return se.whenMemo.Value(h.host, h.context)
	}
	se.whenOnce.Do(func() { se.whenVal, se.whenDiags = se.s.When.Value(h.context()) })
	return se.whenVal, se.whenDiags
}

// whenHolds evaluates when on h and checks that it is true or false
// (checkCondition); h's context is built for the diagnostic only.
func (se *stepEval) whenHolds(h *onHost) (bool, hcl.Diagnostics) {
	v, diags := se.when(h)
	if !diags.HasErrors() && v.IsKnown() && !v.IsNull() && v.Type() == cty.Bool {
		return eval.True(v), nil
	}
	return checkCondition(v, diags, se.s.When, h.context(), "when")
}

// stepArgs are a step's module arguments on one host: the decoded value,
// the module's argument struct (module.Arguments) decoded from it when it
// is wholly known, and the diagnostics of each stage. Shared between the
// hosts of a step when the arguments do not depend on the host, so
// read-only.
type stepArgs struct {
	val      cty.Value
	known    bool  // val.IsWhollyKnown(), asked once (it walks the value)
	typed    any   // nil: the module has no argument struct, or val is not wholly known
	typedErr error // the struct could not be decoded from val
	// decode holds the errors of decoding the body; validate the module's
	// Validate diagnostics (empty when decoding failed).
	decode, validate hcl.Diagnostics
}

// decodeArgs decodes the module arguments in hctx, validates them with
// the module and, when they are wholly known, decodes them into the
// module's argument struct. Validation diagnostics carry the step's range
// when they have none.
func (se *stepEval) decodeArgs(h *onHost) stepArgs {
	if se.argsPerHost {
		return se.argsMemo.Do(h.host, func() (stepArgs, bool) {
			a := se.decode(h)
			return a, len(a.decode) == 0 && len(a.validate) == 0
		})
	}
	se.argsOnce.Do(func() { se.args = se.decode(h) })
	return se.args
}

func (se *stepEval) decode(h *onHost) stepArgs {
	if se.structArgs {
		if a, ok := se.decodeStruct(h); ok {
			return a
		}
	}
	s := se.s
	var args cty.Value
	var diags hcl.Diagnostics
	var known bool
	if se.split != nil {
		args, diags, known = se.split.decode(se.stepScope().Context(), h.host, h.context)
	} else {
		args, diags = program.DecodeArgsSpec(s, se.spec, h.context())
		known = args.IsWhollyKnown()
	}
	a := stepArgs{val: args, decode: diags}
	if diags.HasErrors() {
		return a
	}
	a.validate = program.AttachRange(s.Module.Validate(args), s.DeclRange)
	a.known = known
	if !a.validate.HasErrors() && a.known {
		if se.typed != nil {
			a.typed, a.typedErr = se.typed.decode(args)
		} else {
			a.typed, a.typedErr = module.DecodeTyped(s.Module, args)
		}
	}
	return a
}

// decodeStruct decodes the arguments of a StructArgs module's step on h
// into the module's struct only, with no cty object and no Validate (the
// module declares it checks nothing): what decode gives, but for the
// value, which stays cty.NilVal (the module's Plan and Apply read the
// struct alone). ok is false when the arguments are not of the commonest shape,
// the step's shared ones clean and wholly known and each per-host one
// given by its compiled form as a string for a string field, or when no
// host has decoded its struct whole yet (splitTyped's base): decode then
// decodes them as it does for any module.
func (se *stepEval) decodeStruct(h *onHost) (stepArgs, bool) {
	sa := se.split
	if !sa.sharedClean(se.stepScope().Context()) {
		return stepArgs{}, false
	}
	var buf [4]cty.Value
	vals := buf[:0]
	for _, ha := range sa.hostAttrs {
		v, ok := ha.value(h.host)
		if !ok {
			return stepArgs{}, false
		}
		vals = append(vals, v)
	}
	typed, ok := se.typed.fromValues(vals)
	if !ok {
		return stepArgs{}, false
	}
	return stepArgs{known: true, typed: typed}, true
}

// dependsOnDirty reports whether a step the step depends on is planned to
// change or unknown. Planned changes only accumulate, so a true answer is
// kept.
func (se *stepEval) dependsOnDirty(r *Runner) bool {
	if se.dirty.Load() {
		return true
	}
	dirty, n := r.dependsOnDirtySince(se.s, int(se.cleanAt.Load()))
	if dirty {
		se.dirty.Store(true)
		return true
	}
	se.cleanAt.Store(int64(n))
	return false
}
