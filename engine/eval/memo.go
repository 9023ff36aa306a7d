package eval

import (
	"strconv"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
)

// InputKey returns a key for the values that traversals find in ctx: two
// contexts with the same key give an expression that reads only these
// traversals the same value, since every function of the library is pure.
// ok is false when a traversal does not resolve or finds a value the key
// cannot spell exactly (unknown, marked, or not made of strings, numbers,
// bools, lists, sets, tuples, maps and objects); evaluate then.
func InputKey(trs []hcl.Traversal, ctx *hcl.EvalContext) (string, bool) {
	var b strings.Builder
	for _, tr := range trs {
		v, diags := tr.TraverseAbs(ctx)
		if diags.HasErrors() || !writeKey(&b, v) {
			return "", false
		}
		b.WriteByte(';')
	}
	return b.String(), true
}

// writeKey spells v unambiguously: a type letter, then the value, strings
// with their length first.
func writeKey(b *strings.Builder, v cty.Value) bool {
	if v.IsMarked() || !v.IsKnown() {
		return false
	}
	if v.IsNull() {
		b.WriteString("n")
		return true
	}
	ty := v.Type()
	switch {
	case ty == cty.String:
		s := v.AsString()
		b.WriteString("s")
		b.WriteString(strconv.Itoa(len(s)))
		b.WriteByte(':')
		b.WriteString(s)
	case ty == cty.Number:
		// Exact and cheap (shortest decimal of a 512-bit float is not); the
		// same number at another precision only misses the memo.
		b.WriteString("d")
		b.WriteString(v.AsBigFloat().Text('p', 0))
		b.WriteByte(':')
	case ty == cty.Bool:
		if v.True() {
			b.WriteString("t")
		} else {
			b.WriteString("f")
		}
	case ty.IsListType() || ty.IsSetType() || ty.IsTupleType() || ty.IsMapType() || ty.IsObjectType():
		// The type's own spelling keeps a list apart from a set or a tuple
		// with the same elements, and an object from a map.
		b.WriteString("c")
		b.WriteString(ty.GoString())
		b.WriteByte('{')
		for it := v.ElementIterator(); it.Next(); {
			k, e := it.Element()
			if !writeKey(b, k) || !writeKey(b, e) {
				return false
			}
		}
		b.WriteByte('}')
	default:
		return false
	}
	return true
}
