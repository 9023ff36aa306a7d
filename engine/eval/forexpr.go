package eval

import (
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/ext/customdecode"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
	"github.com/zclconf/go-cty/cty/function"
)

// Value evaluates expr with ctx and returns exactly what expr.Value(ctx)
// returns. An expression whose top is a tuple for expression, or a
// function call, an operation or parentheses around one (what assertions
// write over per-host results: alltrue([for h, r in per_host.x : r.rc ==
// 0]), length([for ...]) == 0, !anytrue(...)), is evaluated by forEval:
// its collection once by hcl, its body per element only once per distinct
// value of what the body reads of the iteration variables. Anything the
// fast way does not take as it is (a diagnostic, an unknown or null
// collection, a condition that is not a known bool, ...) is evaluated
// again by hcl from the top, so the value, its marks and unknowns, and
// every diagnostic are hcl's own.
func Value(expr hcl.Expression, ctx *hcl.EvalContext) (cty.Value, hcl.Diagnostics) {
	if syn, ok := expr.(hclsyntax.Expression); ok {
		if n := compileTop(syn); n != nil {
			if v, ok := n.value(ctx); ok {
				return v, nil
			}
		}
	}
	return expr.Value(ctx)
}

// topNode is an expression that forEval can evaluate. value returns ok
// false when the fast way cannot give hcl's value without a diagnostic:
// the caller then evaluates the whole expression with hcl.
type topNode interface {
	value(ctx *hcl.EvalContext) (cty.Value, bool)
}

// compileTop returns the fast form of e, or nil when e has no tuple for
// expression at its top (through calls, operations and parentheses).
func compileTop(e hclsyntax.Expression) topNode {
	switch e := e.(type) {
	case *hclsyntax.ForExpr:
		return compileFor(e)
	case *hclsyntax.ParenthesesExpr:
		if n := compileTop(e.Expression); n != nil {
			return n // ParenthesesExpr's value is its content's
		}
	case *hclsyntax.FunctionCallExpr:
		if e.ExpandFinal {
			return nil
		}
		var c *callNode // made at the first fast argument: most calls have none
		for i, a := range e.Args {
			if n := compileTop(a); n != nil {
				if c == nil {
					c = &callNode{expr: e, args: make([]topNode, len(e.Args))}
				}
				c.args[i] = n
			}
		}
		if c != nil {
			return c
		}
	case *hclsyntax.BinaryOpExpr:
		l, r := compileTop(e.LHS), compileTop(e.RHS)
		if l != nil || r != nil {
			return &binaryNode{expr: e, lhs: l, rhs: r}
		}
	case *hclsyntax.UnaryOpExpr:
		if v := compileTop(e.Val); v != nil {
			return &unaryNode{expr: e, val: v}
		}
	}
	return nil
}

// literal stands for an operand already evaluated without diagnostics:
// hcl evaluates the operation around it as it would around the operand.
func literal(v cty.Value, of hclsyntax.Expression) *hclsyntax.LiteralValueExpr {
	return &hclsyntax.LiteralValueExpr{Val: v, SrcRange: of.Range()}
}

// noDiags is the fast way's one outcome: a value hcl gave without any
// diagnostic.
func noDiags(v cty.Value, diags hcl.Diagnostics) (cty.Value, bool) {
	if len(diags) > 0 {
		return cty.NilVal, false
	}
	return v, true
}

// callNode is a function call with at least one fast argument. The call
// itself is hcl's, with the fast arguments as their values.
type callNode struct {
	expr *hclsyntax.FunctionCallExpr
	args []topNode
}

func (c *callNode) value(ctx *hcl.EvalContext) (cty.Value, bool) {
	f, ok := function_(ctx, c.expr.Name)
	if !ok {
		return cty.NilVal, false
	}
	params, varParam := f.Params(), f.VarParam()
	call := *c.expr
	call.Args = make([]hclsyntax.Expression, len(c.expr.Args))
	copy(call.Args, c.expr.Args)
	for i, n := range c.args {
		if n == nil {
			continue
		}
		var p *function.Parameter
		switch {
		case i < len(params):
			p = &params[i]
		case varParam != nil:
			p = varParam
		default:
			return cty.NilVal, false // too many arguments: hcl's diagnostic
		}
		if customdecode.CustomExpressionDecoderForType(p.Type) != nil {
			return cty.NilVal, false // the function reads the expression itself
		}
		v, ok := n.value(ctx)
		if !ok {
			return cty.NilVal, false
		}
		call.Args[i] = literal(v, c.expr.Args[i])
	}
	return noDiags(call.Value(ctx))
}

// function_ finds name in ctx as FunctionCallExpr does.
func function_(ctx *hcl.EvalContext, name string) (function.Function, bool) {
	for c := ctx; c != nil; c = c.Parent() {
		if f, ok := c.Functions[name]; ok {
			return f, true
		}
	}
	return function.Function{}, false
}

// binaryNode is an operation with at least one fast operand.
type binaryNode struct {
	expr     *hclsyntax.BinaryOpExpr
	lhs, rhs topNode
}

func (b *binaryNode) value(ctx *hcl.EvalContext) (cty.Value, bool) {
	op := *b.expr
	if b.lhs != nil {
		v, ok := b.lhs.value(ctx)
		if !ok {
			return cty.NilVal, false
		}
		op.LHS = literal(v, b.expr.LHS)
	}
	if b.rhs != nil {
		v, ok := b.rhs.value(ctx)
		if !ok {
			return cty.NilVal, false
		}
		op.RHS = literal(v, b.expr.RHS)
	}
	return noDiags(op.Value(ctx))
}

// unaryNode is ! or - of a fast operand.
type unaryNode struct {
	expr *hclsyntax.UnaryOpExpr
	val  topNode
}

func (u *unaryNode) value(ctx *hcl.EvalContext) (cty.Value, bool) {
	v, ok := u.val.value(ctx)
	if !ok {
		return cty.NilVal, false
	}
	op := *u.expr
	op.Val = literal(v, u.expr.Val)
	return noDiags(op.Value(ctx))
}

// forNode is a tuple for expression, [for k, v in C : BODY if COND].
type forNode struct {
	expr      *hclsyntax.ForExpr
	val, cond *bodyExpr // cond nil without an if clause
}

func compileFor(e *hclsyntax.ForExpr) topNode {
	if e.KeyExpr != nil || e.Group {
		return nil // an object for expression: hcl's
	}
	n := &forNode{expr: e, val: compileBody(e.ValExpr, e.KeyVar, e.ValVar)}
	if e.CondExpr != nil {
		n.cond = compileBody(e.CondExpr, e.KeyVar, e.ValVar)
	}
	return n
}

// value follows hclsyntax.ForExpr.Value for a known, iterable collection
// and a condition that is a known bool on every element; it gives up on
// anything else, and on any diagnostic.
func (n *forNode) value(ctx *hcl.EvalContext) (cty.Value, bool) {
	e := n.expr
	coll, diags := e.CollExpr.Value(ctx)
	if len(diags) > 0 || coll.IsNull() || coll.Type() == cty.DynamicPseudoType {
		return cty.NilVal, false
	}
	coll, collMarks := coll.Unmark()
	if !coll.CanIterateElements() || !coll.IsKnown() {
		return cty.NilVal, false
	}
	if e.CondExpr != nil {
		// hcl's early check of the condition's type, with both variables
		// unknown: any diagnostic it gives is hcl's to give.
		child := ctx.NewChild()
		child.Variables = map[string]cty.Value{}
		if e.KeyVar != "" {
			child.Variables[e.KeyVar] = cty.DynamicVal
		}
		child.Variables[e.ValVar] = cty.DynamicVal
		res, d := e.CondExpr.Value(child)
		if len(d) > 0 || res.IsNull() {
			return cty.NilVal, false
		}
		if _, err := convert.Convert(res, cty.Bool); err != nil {
			return cty.NilVal, false
		}
	}
	marks := []cty.ValueMarks{collMarks}
	vals := make([]cty.Value, 0, coll.LengthInt())
	for it := coll.ElementIterator(); it.Next(); {
		k, v := it.Element()
		if n.cond != nil {
			raw, ok := n.cond.value(ctx, k, v)
			if !ok || raw.IsNull() || !raw.IsKnown() {
				return cty.NilVal, false
			}
			if raw.IsMarked() {
				_, m := raw.Unmark()
				marks = append(marks, m)
			}
			include, err := convert.Convert(raw, cty.Bool)
			if err != nil {
				return cty.NilVal, false
			}
			if include, _ = include.Unmark(); include.False() {
				continue
			}
		}
		val, ok := n.val.value(ctx, k, v)
		if !ok {
			return cty.NilVal, false
		}
		vals = append(vals, val)
	}
	return cty.TupleVal(vals).WithMarks(marks...), true
}
