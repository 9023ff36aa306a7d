package apply

import (
	"maps"
	"slices"
	"sync"

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
	s     *program.Step
	scope *eval.StepScope
	spec  hcldec.Spec // the module's, asked once

	whenPerHost, argsPerHost bool
	// split decodes per-host arguments attribute by attribute (nil: the
	// whole body on every host), and typed their struct field by field
	// (nil: whole on every host).
	split *splitArgs
	typed *splitTyped

	whenOnce  sync.Once
	whenVal   cty.Value
	whenDiags hcl.Diagnostics

	// whenRefs are the traversals when reads; whenMemo keeps its value
	// per eval.InputKey of them, for a when that differs per host but
	// reads what many hosts share (host.groups, host.vars.rack).
	whenRefs []hcl.Traversal
	memoMu   sync.Mutex
	whenMemo map[string]memoValue

	argsOnce sync.Once
	args     stepArgs

	dirtyMu sync.Mutex
	dirty   bool // a dependency is planned to change (plan; once true, stays)
}

// stepEval returns the evaluator of step s, making it when the step's
// first host asks: the step's dependencies have finished by then, so their
// per_host results are final.
func (r *Runner) stepEval(s *program.Step) *stepEval {
	r.evalMu.Lock()
	defer r.evalMu.Unlock()
	if se, ok := r.evals[s.Name]; ok {
		return se
	}
	// Plan too has real per-host results: read-only steps run for real,
	// the others leave unknown or partly known results.
	se := &stepEval{s: s, scope: r.scope.Step(r.results, eval.RefsOf(program.References(s.Step, s.Module)), s.Each)}
	if s.When != nil {
		se.whenRefs = s.When.Variables()
		se.whenPerHost = eval.RefsOf(se.whenRefs).VaryByHost()
	}
	if se.spec = s.Module.Spec(); se.spec != nil {
		se.argsPerHost = eval.RefsOf(hcldec.Variables(s.Body, se.spec)).VaryByHost()
		if se.argsPerHost {
			se.split = newSplitArgs(s.Body, se.spec)
		}
		if se.split != nil {
			se.typed = newSplitTyped(s.Module, slices.Collect(maps.Keys(se.split.hostSpec)))
		}
	}
	if r.evals == nil {
		r.evals = map[string]*stepEval{}
	}
	r.evals[s.Name] = se
	return se
}

// maxMemo bounds a step's memo of when values.
const maxMemo = 4096

type memoValue struct {
	v     cty.Value
	diags hcl.Diagnostics
}

// host returns the context the step sees on host; self, when not
// cty.NilVal, is the step's own result (until, changed_when, failed_when).
func (se *stepEval) host(host string, self cty.Value) *hcl.EvalContext {
	return se.scope.Host(host, self)
}

// when evaluates the step's when condition (which must be set) in hctx, the
// context of one of its hosts.
func (se *stepEval) when(hctx *hcl.EvalContext) (cty.Value, hcl.Diagnostics) {
	if se.whenPerHost {
		key, ok := eval.InputKey(se.whenRefs, hctx)
		if !ok {
			return se.s.When.Value(hctx)
		}
		se.memoMu.Lock()
		m, hit := se.whenMemo[key]
		se.memoMu.Unlock()
		if hit {
			return m.v, m.diags
		}
		v, diags := se.s.When.Value(hctx)
		se.memoMu.Lock()
		if se.whenMemo == nil {
			se.whenMemo = map[string]memoValue{}
		}
		if len(se.whenMemo) < maxMemo {
			se.whenMemo[key] = memoValue{v, diags}
		}
		se.memoMu.Unlock()
		return v, diags
	}
	se.whenOnce.Do(func() { se.whenVal, se.whenDiags = se.s.When.Value(hctx) })
	return se.whenVal, se.whenDiags
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
func (se *stepEval) decodeArgs(hctx *hcl.EvalContext) stepArgs {
	if se.argsPerHost {
		return se.decode(hctx)
	}
	se.argsOnce.Do(func() { se.args = se.decode(hctx) })
	return se.args
}

func (se *stepEval) decode(hctx *hcl.EvalContext) stepArgs {
	s := se.s
	var args cty.Value
	var diags hcl.Diagnostics
	if se.split != nil {
		args, diags = se.split.decode(se.scope.Context(), hctx)
	} else {
		args, diags = program.DecodeArgsSpec(s, se.spec, hctx)
	}
	a := stepArgs{val: args, decode: diags}
	if diags.HasErrors() {
		return a
	}
	a.validate = program.AttachRange(s.Module.Validate(args), s.DeclRange)
	a.known = args.IsWhollyKnown()
	if !a.validate.HasErrors() && a.known {
		if se.typed != nil {
			a.typed, a.typedErr = se.typed.decode(args)
		} else {
			a.typed, a.typedErr = module.DecodeTyped(s.Module, args)
		}
	}
	return a
}

// dependsOnDirty reports whether a step the step depends on is planned to
// change or unknown. Planned changes only accumulate, so a true answer is
// kept.
func (se *stepEval) dependsOnDirty(r *Runner) bool {
	se.dirtyMu.Lock()
	defer se.dirtyMu.Unlock()
	if !se.dirty {
		se.dirty = r.dependsOnDirty(se.s)
	}
	return se.dirty
}
