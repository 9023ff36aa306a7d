package eval

import (
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
)

// Compiled is a per-host expression of a step in a form that evaluates on
// a host without the host's hcl.EvalContext: a string template of
// literals and interpolations, a plain traversal of host.* or of this
// host's step.* results, or anything that reads neither (evaluated once,
// in the step's shared context). It covers the commonest shapes of
// per-host arguments ("echo ${host.name} ${host.vars.idx}", host.address,
// "${step.prev.stdout}") and nothing else: Compile returns nil for any
// other shape, and Value reports false wherever its value could differ
// from hcl's in any way (a part that is null, unknown, marked or not a
// string, number or bool; a traversal hcl would fail). The caller then
// evaluates the expression with hcl, which also gives its diagnostics:
// a compiled value never has any. Safe for concurrent use.
type Compiled struct {
	ss   *StepScope
	root cnode
}

// cnode is one compiled expression: value reports false where the caller
// must evaluate with hcl. idx is host's index in the inventory (Hosts),
// or -1 for a host the inventory does not list.
type cnode interface {
	value(ss *StepScope, host string, idx int) (cty.Value, bool)
}

// Compile returns the compiled form of expr in step ss, or nil when expr
// has a shape Compiled does not cover.
func (ss *StepScope) Compile(expr hcl.Expression) *Compiled {
	n := ss.compile(unwrap(expr))
	if n == nil {
		return nil
	}
	return &Compiled{ss: ss, root: n}
}

// unwrap removes wrappers that evaluate to what they wrap (FastTemplate).
func unwrap(expr hcl.Expression) hcl.Expression {
	if f, ok := expr.(fastTemplate); ok {
		return f.t
	}
	return expr
}

func (ss *StepScope) compile(expr hcl.Expression) cnode {
	refs := RefsOf(expr.Variables())
	if refs.Self {
		return nil
	}
	if !refs.VaryByHost() {
		// The same value on every host of the step (every library
		// function is pure): evaluated once, here.
		v, diags := expr.Value(ss.ctx)
		if len(diags) > 0 {
			return nil
		}
		return cconst{v}
	}
	switch e := expr.(type) {
	case *hclsyntax.TemplateWrapExpr:
		// "${x}" is x's value.
		return ss.compile(e.Wrapped)
	case *hclsyntax.ScopeTraversalExpr:
		return ss.compileTraversal(e.Traversal)
	case *hclsyntax.TemplateExpr:
		t := &ctemplate{parts: make([]cnode, len(e.Parts))}
		for i, p := range e.Parts {
			if t.parts[i] = ss.compile(p); t.parts[i] == nil {
				return nil
			}
			if c, ok := t.parts[i].(cconst); ok && c.v.Type() == cty.String && c.v.IsKnown() && !c.v.IsNull() && !c.v.IsMarked() {
				t.size += len(c.v.AsString())
			}
		}
		return t
	}
	return nil
}

func (ss *StepScope) compileTraversal(tr hcl.Traversal) cnode {
	switch tr.RootName() {
	case "host":
		return chost{rest: tr[1:], table: ss.scope.hostTableFor(tr)}
	case "step":
		if ss.results == nil {
			return nil // in the shared context: not per host (compile took it)
		}
		name, ok := attrName(tr, 1)
		if !ok {
			return nil
		}
		ty, ok := ss.scope.stepTypes[name]
		if !ok || !stepNamed(ss.step, name) {
			return nil // hcl's error
		}
		return cstep{name: name, ty: ty, rest: tr[2:]}
	}
	return nil
}

func stepNamed(names []string, name string) bool {
	for _, n := range names {
		if n == name {
			return true
		}
	}
	return false
}

// Value returns the expression's value on host, or false when the caller
// must evaluate it with hcl.
func (c *Compiled) Value(host string) (cty.Value, bool) {
	if c == nil {
		return cty.NilVal, false
	}
	return c.root.value(c.ss, host, c.ss.scope.indexOf(host))
}

// cconst is a value the same on every host.
type cconst struct{ v cty.Value }

func (c cconst) value(*StepScope, string, int) (cty.Value, bool) { return c.v, true }

// chost is host.* followed by rest: the host object, made once per run,
// traversed as hcl does (traverseRel; false where hcl gives an error),
// read from the run's table of that traversal for an inventory host.
type chost struct {
	rest  hcl.Traversal
	table *hostTable // nil: the traversal has a step a table cannot name
}

func (c chost) value(ss *StepScope, host string, idx int) (cty.Value, bool) {
	if c.table != nil && idx >= 0 {
		e := c.table.entry(ss.scope, idx, c.rest)
		return e.v, e.ok
	}
	return traverseRel(ss.scope.hostVal(host), c.rest)
}

// plain appends the part's rendering on host to b (appendPlain), from the
// table's when it has one; false when the part is not a plain value.
func (c chost) plain(b *strings.Builder, ss *StepScope, host string, idx int) bool {
	if c.table != nil && idx >= 0 {
		e := c.table.entry(ss.scope, idx, c.rest)
		if e.plain {
			b.WriteString(e.text)
		}
		return e.plain
	}
	v, ok := traverseRel(ss.scope.hostVal(host), c.rest)
	return ok && appendPlain(b, v)
}

// cstep is step.NAME followed by rest: this host's result, as the host's
// context holds it (Results.own), read without making a result recorded
// by kind when rest starts with one of its attributes.
type cstep struct {
	name string
	ty   cty.Type
	rest hcl.Traversal
}

func (c cstep) value(ss *StepScope, host string, _ int) (cty.Value, bool) {
	return ss.results.ownAt(c.name, host, c.ty, c.rest)
}

// ctemplate is a string template: its parts rendered as hcl renders
// plain known values (appendPlain), or false when a part is anything else
// (null, unknown, marked, a collection), where hcl gives a refined
// unknown, marks or a diagnostic.
type ctemplate struct {
	parts []cnode
	size  int // the literal parts' bytes
}

func (t *ctemplate) value(ss *StepScope, host string, idx int) (cty.Value, bool) {
	var b strings.Builder
	b.Grow(t.size + 16)
	for _, p := range t.parts {
		if h, ok := p.(chost); ok {
			if !h.plain(&b, ss, host, idx) {
				return cty.NilVal, false
			}
			continue
		}
		v, ok := p.value(ss, host, idx)
		if !ok || !appendPlain(&b, v) {
			return cty.NilVal, false
		}
	}
	// hcl refines its result as not null, which a known value ignores
	// (cty.Value.RefineNotNull gives it back as it is).
	return cty.StringVal(b.String()), true
}
