package eval

import (
	"sync"
	"sync/atomic"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
)

// ExprMemo evaluates one expression on the hosts of a step once per
// distinct input. A binary operation (a && b, x != "r00") is taken apart:
// each operand is evaluated by its own ExprMemo, so once per distinct
// value of what that operand reads (host.vars.rack, host.groups), and the
// operation once per distinct pair of operand values. hcl evaluates an
// operation from its operands' values alone (both are always evaluated),
// so the operation applied to the operands' values, as literals with the
// same ranges, gives the value the whole expression gives; an operation
// of a when's kinds (&&, ||, ==, !=) on two plain bools or strings is
// computed directly (directOp). Whenever an
// operand or the operation has diagnostics, the whole expression is
// evaluated in the host's own context instead, so diagnostics are hcl's
// own for that host. Any other expression is kept by a Memo of its
// traversals. Safe for concurrent use.
type ExprMemo struct {
	expr hcl.Expression
	memo *Memo[exprValue] // nil: its inputs name one host each

	// shared: the expression reads nothing that differs between the
	// step's hosts (a literal operand): evaluated once in the step's
	// context, and kept when that gives no diagnostics (a diagnostic
	// names the host's context: then every host evaluates).
	shared     bool
	ss         *StepScope
	sharedOnce sync.Once
	sharedVal  cty.Value
	sharedOK   bool

	op       *hclsyntax.BinaryOpExpr // taken apart, or nil
	lhs, rhs *ExprMemo
	// byPair holds the operation's value by its operands' keys: a map
	// never written once stored, read without a lock; a new pair stores
	// a copy with it added (mu orders the writers). Operands take few
	// distinct values, so the copies are few and small.
	mu     sync.Mutex
	byPair atomic.Pointer[map[string]cty.Value]
}

// maxPairs bounds the pairs an operation keeps (each new one copies the
// map).
const maxPairs = 256

type exprValue struct {
	v     cty.Value
	diags hcl.Diagnostics
}

// NewExprMemo returns the memo of expr in step ss.
func NewExprMemo(ss *StepScope, expr hcl.Expression) *ExprMemo {
	if p, ok := expr.(*hclsyntax.ParenthesesExpr); ok {
		return NewExprMemo(ss, p.Expression) // its value is the inner one's
	}
	e := &ExprMemo{expr: expr}
	if op, ok := expr.(*hclsyntax.BinaryOpExpr); ok {
		e.op = op
		e.lhs, e.rhs = NewExprMemo(ss, op.LHS), NewExprMemo(ss, op.RHS)
		return e
	}
	if trs := expr.Variables(); !RefsOf(trs).VaryByHost() {
		e.shared, e.ss = true, ss
	} else {
		e.memo = NewMemo[exprValue](ss, trs)
	}
	return e
}

// Value returns the expression's value and diagnostics on host, with
// hctx giving the host's context when an evaluation needs it.
func (e *ExprMemo) Value(host string, hctx func() *hcl.EvalContext) (cty.Value, hcl.Diagnostics) {
	if e.shared {
		e.sharedOnce.Do(func() {
			v, diags := e.expr.Value(e.ss.ctx)
			e.sharedVal, e.sharedOK = v, len(diags) == 0
		})
		if e.sharedOK {
			return e.sharedVal, nil
		}
		return e.expr.Value(hctx())
	}
	if e.op == nil {
		r := e.memo.Do(host, func() (exprValue, bool) {
			v, diags := e.expr.Value(hctx())
			return exprValue{v, diags}, len(diags) == 0
		})
		return r.v, r.diags
	}
	if v, ok := e.combine(host, hctx); ok {
		return v, nil
	}
	return e.expr.Value(hctx())
}

// combine evaluates the operation from its operands' values; ok is false
// when an operand or the operation has diagnostics.
func (e *ExprMemo) combine(host string, hctx func() *hcl.EvalContext) (cty.Value, bool) {
	l, ld := e.lhs.Value(host, hctx)
	if len(ld) > 0 {
		return cty.NilVal, false
	}
	r, rd := e.rhs.Value(host, hctx)
	if len(rd) > 0 {
		return cty.NilVal, false
	}
	if v, ok := directOp(e.op.Op, l, r); ok {
		return v, true
	}
	var buf [64]byte
	key, keyed := appendKey(buf[:0], l)
	if keyed {
		key, keyed = appendKey(append(key, ';'), r)
	}
	if keyed {
		if pairs := e.byPair.Load(); pairs != nil {
			if v, hit := (*pairs)[string(key)]; hit {
				return v, true
			}
		}
	}
	op := &hclsyntax.BinaryOpExpr{
		LHS:      &hclsyntax.LiteralValueExpr{Val: l, SrcRange: e.op.LHS.Range()},
		Op:       e.op.Op,
		RHS:      &hclsyntax.LiteralValueExpr{Val: r, SrcRange: e.op.RHS.Range()},
		SrcRange: e.op.SrcRange,
	}
	v, diags := op.Value(nil)
	if len(diags) > 0 {
		return cty.NilVal, false
	}
	if keyed {
		e.mu.Lock()
		old := e.byPair.Load()
		if old == nil || len(*old) < maxPairs {
			pairs := make(map[string]cty.Value, 1+lenOf(old))
			if old != nil {
				for k, pv := range *old {
					pairs[k] = pv
				}
			}
			pairs[string(key)] = v
			e.byPair.Store(&pairs)
		}
		e.mu.Unlock()
	}
	return v, true
}

func lenOf(m *map[string]cty.Value) int {
	if m == nil {
		return 0
	}
	return len(*m)
}
