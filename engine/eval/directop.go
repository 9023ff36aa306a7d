package eval

import (
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
)

// directOp is the value hcl gives the binary operation op of operands l
// and r, for the operations a when is made of (&&, ||, == and !=) on two
// known, unmarked, non-null bools or strings, computed without hcl's
// function call; ok is false for any other operation or operands, which
// the caller evaluates as hcl does. On such operands hcl converts nothing
// (the operands are of the parameters' types, or those are dynamic),
// adds no diagnostic and no mark, and calls cty's And, Or and Equals
// (Equals, then Not), which give cty.BoolVal of the Go comparison: so does
// directOp, reading each bool with True (not cty's True, which compares
// through Equals and makes a value on every call). A when evaluated on every host of a step then costs no key
// spelled and no map looked up for its operations.
func directOp(op *hclsyntax.Operation, l, r cty.Value) (cty.Value, bool) {
	lt := l.Type()
	if (lt != cty.Bool && lt != cty.String) || lt != r.Type() ||
		!l.IsKnown() || !r.IsKnown() || l.IsNull() || r.IsNull() || l.IsMarked() || r.IsMarked() {
		return cty.NilVal, false
	}
	switch op {
	case hclsyntax.OpLogicalAnd:
		if lt == cty.Bool {
			return cty.BoolVal(True(l) && True(r)), true
		}
	case hclsyntax.OpLogicalOr:
		if lt == cty.Bool {
			return cty.BoolVal(True(l) || True(r)), true
		}
	case hclsyntax.OpEqual, hclsyntax.OpNotEqual:
		var eq bool
		if lt == cty.Bool {
			eq = True(l) == True(r)
		} else {
			eq = l.AsString() == r.AsString()
		}
		return cty.BoolVal(eq == (op == hclsyntax.OpEqual)), true
	}
	return cty.NilVal, false
}
