package eval

import (
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
)

// bodyExpr is the value or the condition of a for expression, evaluated
// per element. Its value depends on the element only through the
// traversals of the iteration variables it contains (everything else it
// reads is the same for every element, and every library function is
// pure), so it is evaluated by hcl, in the child context hcl would make,
// once per distinct set of those traversals' values, and reused for the
// other elements whose traversals give the same values. A body that is
// one such traversal is that traversal's value.
type bodyExpr struct {
	expr           hclsyntax.Expression
	keyVar, valVar string

	// direct: the body is the traversal trs[0].
	direct bool
	trs    []varTraversal // at most maxKeyParts are memoised
	memo   map[memoKey]cty.Value
}

// varTraversal is a traversal rooted at an iteration variable.
type varTraversal struct {
	key bool // rooted at the key variable, else at the value variable
	rel hcl.Traversal
}

const maxKeyParts = 4

func compileBody(e hclsyntax.Expression, keyVar, valVar string) *bodyExpr {
	b := &bodyExpr{expr: e, keyVar: keyVar, valVar: valVar}
	for _, tr := range hclsyntax.Variables(e) {
		root := tr.RootName()
		if root != valVar && (keyVar == "" || root != keyVar) {
			continue
		}
		// [for r, r in ...] is valid: hcl sets the key, then the value, so r
		// is the value.
		key := keyVar != "" && root == keyVar && keyVar != valVar
		b.trs = append(b.trs, varTraversal{key: key, rel: tr.SimpleSplit().Rel})
	}
	if st, ok := e.(*hclsyntax.ScopeTraversalExpr); ok && len(b.trs) == 1 && len(st.Traversal) == len(b.trs[0].rel)+1 {
		b.direct = true
	}
	return b
}

// value returns the body's value on the element k, v as hcl gives it, or
// ok false when hcl gave a diagnostic.
func (b *bodyExpr) value(ctx *hcl.EvalContext, k, v cty.Value) (cty.Value, bool) {
	if b.direct {
		return noDiags(b.trs[0].of(k, v))
	}
	var key memoKey
	memo := len(b.trs) <= maxKeyParts
	for i := 0; memo && i < len(b.trs); i++ {
		val, d := b.trs[i].of(k, v)
		memo = len(d) == 0 && key.add(val)
	}
	if memo {
		if r, ok := b.memo[key]; ok {
			return r, true
		}
	}
	child := ctx.NewChild()
	child.Variables = map[string]cty.Value{}
	if b.keyVar != "" {
		child.Variables[b.keyVar] = k
	}
	child.Variables[b.valVar] = v
	r, ok := noDiags(b.expr.Value(child))
	if ok && memo {
		if b.memo == nil {
			b.memo = map[memoKey]cty.Value{}
		}
		b.memo[key] = r
	}
	return r, ok
}

// of is the traversal's value on the element k, v: what the
// ScopeTraversalExpr gives in the element's child context.
func (t varTraversal) of(k, v cty.Value) (cty.Value, hcl.Diagnostics) {
	root := v
	if t.key {
		root = k
	}
	if len(t.rel) == 0 {
		return root, nil
	}
	// r.rc on a known, non-null, unmarked object that has rc: what
	// hcl.GetAttr comes to, without its diagnostics' bookkeeping.
	if a, ok := t.rel[0].(hcl.TraverseAttr); ok && len(t.rel) == 1 {
		if ty := root.Type(); ty.IsObjectType() && ty.HasAttribute(a.Name) && root.IsKnown() && !root.IsNull() && !root.IsMarked() {
			return root.GetAttr(a.Name), nil
		}
	}
	return t.rel.TraverseRel(root)
}

// memoKey is the values of a body's traversals, each a known, unmarked
// string, number or bool, or a null of one of those types. Such a value
// is a cty.Value whose internal value is a string, a bool, nil or a
// *big.Float, all comparable, so the key compares the values as Go values:
// two strings or bools are equal when they are the same value, and two
// numbers when they are the same *big.Float (prova's exit statuses are
// shared numbers, RCVal). Equal numbers made apart are different keys:
// evaluated once each, never confused (a number's precision can change
// what a division gives).
type memoKey struct {
	n     uint8
	parts [maxKeyParts]cty.Value
}

// add appends v to the key, or reports false when v is not one a key
// can hold.
func (k *memoKey) add(v cty.Value) bool {
	if !v.IsKnown() || v.IsMarked() {
		return false
	}
	switch v.Type() {
	case cty.String, cty.Number, cty.Bool:
	default:
		return false
	}
	k.parts[k.n] = v
	k.n++
	return true
}
