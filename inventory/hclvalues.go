package inventory

import (
	"fmt"
	"math/big"
	"path/filepath"
	"strings"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
)

// attrRef is what the value helpers read of an attribute: its name (for
// messages) and its expression. It is a value, so that an attribute read
// straight from the syntax tree costs no hcl.Attribute.
type attrRef struct {
	Name string
	Expr hcl.Expression
}

// refOf is the attrRef of an attribute from Body.Content.
func refOf(a *hcl.Attribute) attrRef { return attrRef{Name: a.Name, Expr: a.Expr} }

// evalAttr evaluates an attribute with no variables and no functions. ok is
// false when the value is null or there were errors.
func evalAttr(attr attrRef) (cty.Value, bool, hcl.Diagnostics) {
	v, diags := attr.Expr.Value(nil)
	if diags.HasErrors() || !v.IsWhollyKnown() || v.IsNull() {
		return v, false, diags
	}
	return v, true, diags
}

// literalString is the value of a quoted string without interpolations
// ("gpfs01"), the common case, without evaluating the expression: the
// parser has made the literal's value already, and a template of one
// literal evaluates to it. ok is false for anything else.
func literalString(e hcl.Expression) (string, bool) {
	t, ok := e.(*hclsyntax.TemplateExpr)
	if !ok || len(t.Parts) != 1 {
		return "", false
	}
	lit, ok := t.Parts[0].(*hclsyntax.LiteralValueExpr)
	if !ok || lit.Val.Type() != cty.String || lit.Val.IsMarked() || !lit.Val.IsKnown() || lit.Val.IsNull() {
		return "", false
	}
	return lit.Val.AsString(), true
}

// literalStringList is a tuple of literal strings (["g01", "g02"]) with
// each element's range, as attrStringList gives it; ok is false for
// anything else, and for an empty tuple.
func literalStringList(e hcl.Expression) ([]string, []hcl.Range, bool) {
	tup, ok := e.(*hclsyntax.TupleConsExpr)
	if !ok || len(tup.Exprs) == 0 {
		return nil, nil, false
	}
	out := make([]string, len(tup.Exprs))
	ranges := make([]hcl.Range, len(tup.Exprs))
	for i, el := range tup.Exprs {
		s, ok := literalString(el)
		if !ok {
			return nil, nil, false
		}
		out[i], ranges[i] = s, el.Range()
	}
	return out, ranges, true
}

// evaluateAll turns the literal fast paths off, so that every attribute is
// evaluated through hcl as before they existed: the differential tests load
// each inventory both ways. It is never set outside tests.
var evaluateAll bool

// literalObject is the attributes of an object constructor whose keys are
// names or literal strings and whose values are literals (see
// literalValue), as evaluating the object and iterating it gives them:
// a later duplicate key wins, as in ObjectConsExpr.Value. ok is false for
// anything else.
func literalObject(e *hclsyntax.ObjectConsExpr) (map[string]cty.Value, bool) {
	out := make(map[string]cty.Value, len(e.Items))
	for _, item := range e.Items {
		k, ok := literalKey(item.KeyExpr)
		if !ok {
			return nil, false
		}
		v, ok := literalValue(item.ValueExpr)
		if !ok {
			return nil, false
		}
		out[k] = v
	}
	return out, true
}

// literalKey is an object key that is a bare name or a literal string, as
// ObjectConsKeyExpr.Value makes it (a name goes through cty.StringVal,
// which normalises it).
func literalKey(e hclsyntax.Expression) (string, bool) {
	k, ok := e.(*hclsyntax.ObjectConsKeyExpr)
	if !ok {
		return "", false
	}
	if !k.ForceNonLiteral {
		if trav, isTrav := k.Wrapped.(*hclsyntax.ScopeTraversalExpr); isTrav && len(trav.Traversal) > 1 {
			return "", false // an error when evaluated: let hcl say it
		}
		if ln := hcl.ExprAsKeyword(k.Wrapped); ln != "" {
			for i := 0; i < len(ln); i++ {
				if ln[i] >= 0x80 {
					return cty.StringVal(ln).AsString(), true
				}
			}
			return ln, true
		}
	}
	return literalString(k.Wrapped)
}

// literalValue is the value of a literal (a number, bool or null), a
// quoted string without interpolations, or a tuple or object of them, as
// evaluating it gives it. ok is false for anything else.
func literalValue(e hclsyntax.Expression) (cty.Value, bool) {
	switch e := e.(type) {
	case *hclsyntax.LiteralValueExpr:
		if e.Val.IsMarked() || !e.Val.IsKnown() {
			return cty.NilVal, false
		}
		return e.Val, true
	case *hclsyntax.TemplateExpr:
		if _, ok := literalString(e); !ok {
			return cty.NilVal, false
		}
		// the parser's value; evaluating the template gives an equal one
		return e.Parts[0].(*hclsyntax.LiteralValueExpr).Val, true
	case *hclsyntax.TupleConsExpr:
		vals := make([]cty.Value, len(e.Exprs))
		for i, el := range e.Exprs {
			v, ok := literalValue(el)
			if !ok {
				return cty.NilVal, false
			}
			vals[i] = v
		}
		return cty.TupleVal(vals), true
	case *hclsyntax.ObjectConsExpr:
		attrs, ok := literalObject(e)
		if !ok {
			return cty.NilVal, false
		}
		return cty.ObjectVal(attrs), true
	}
	return cty.NilVal, false
}

func typeError(attr attrRef, want string) hcl.Diagnostics {
	return hcl.Diagnostics{{
		Severity: hcl.DiagError,
		Summary:  "Invalid value for " + attr.Name,
		Detail:   fmt.Sprintf("The %s argument must be %s.", attr.Name, want),
		Subject:  attr.Expr.Range().Ptr(),
	}}
}

func attrString(attr attrRef) (string, bool, hcl.Diagnostics) {
	if s, ok := literalString(attr.Expr); ok && !evaluateAll {
		return s, true, nil
	}
	v, ok, diags := evalAttr(attr)
	if !ok {
		return "", false, diags
	}
	s, err := convert.Convert(v, cty.String)
	if err != nil {
		return "", false, append(diags, typeError(attr, "a string")...)
	}
	return s.AsString(), true, diags
}

func attrBool(attr attrRef) (bool, bool, hcl.Diagnostics) {
	v, ok, diags := evalAttr(attr)
	if !ok {
		return false, false, diags
	}
	bv, err := convert.Convert(v, cty.Bool)
	if err != nil {
		return false, false, append(diags, typeError(attr, "a bool")...)
	}
	return bv.True(), true, diags
}

func attrPort(attr attrRef) (int, bool, hcl.Diagnostics) {
	v, ok, diags := evalAttr(attr)
	if !ok {
		return 0, false, diags
	}
	nv, err := convert.Convert(v, cty.Number)
	if err != nil {
		return 0, false, append(diags, typeError(attr, "a number")...)
	}
	p, ok := portOf(nv.AsBigFloat())
	if !ok {
		return 0, false, append(diags, typeError(attr, "a whole number from 1 to 65535")...)
	}
	return p, true, diags
}

func portOf(f *big.Float) (int, bool) {
	if !f.IsInt() {
		return 0, false
	}
	i, acc := f.Int64()
	if acc != big.Exact || i < 1 || i > 65535 {
		return 0, false
	}
	return int(i), true
}

// attrDuration accepts a Go duration string ("10s") or a number of seconds.
func attrDuration(attr attrRef) (time.Duration, bool, hcl.Diagnostics) {
	v, ok, diags := evalAttr(attr)
	if !ok {
		return 0, false, diags
	}
	d, err := durationOf(v)
	if err != nil {
		return 0, false, append(diags, typeError(attr, "a duration such as \"10s\" or a number of seconds")...)
	}
	return d, true, diags
}

func durationOf(v cty.Value) (time.Duration, error) {
	if v.Type() == cty.Number {
		f, _ := v.AsBigFloat().Float64()
		if f < 0 || f > 1e6 {
			return 0, fmt.Errorf("out of range")
		}
		return time.Duration(f * float64(time.Second)), nil
	}
	s, err := convert.Convert(v, cty.String)
	if err != nil {
		return 0, err
	}
	str := strings.TrimSpace(s.AsString())
	if isDigits(str) && len(str) < 7 {
		v, _ := cty.ParseNumberVal(str)
		return durationOf(v)
	}
	d, err := time.ParseDuration(str)
	if err != nil || d < 0 {
		return 0, fmt.Errorf("bad duration %q", str)
	}
	return d, nil
}

// attrStringList accepts a string or a list of strings and returns the
// range of each element (the whole expression when elements are not
// literal).
func attrStringList(attr attrRef, allowSingle bool) ([]string, []hcl.Range, bool, hcl.Diagnostics) {
	if out, ranges, ok := literalStringList(attr.Expr); ok && !evaluateAll {
		return out, ranges, true, nil
	}
	return attrStringListEvaluated(attr, allowSingle)
}

// attrStringListEvaluated is attrStringList by evaluating the expression.
func attrStringListEvaluated(attr attrRef, allowSingle bool) ([]string, []hcl.Range, bool, hcl.Diagnostics) {
	v, ok, diags := evalAttr(attr)
	if !ok {
		return nil, nil, false, diags
	}
	want := "a list of strings"
	if allowSingle {
		want = "a string or a list of strings"
		if v.Type() == cty.String {
			return []string{v.AsString()}, []hcl.Range{attr.Expr.Range()}, true, diags
		}
	}
	lv, err := convert.Convert(v, cty.List(cty.String))
	if err != nil || !lv.IsWhollyKnown() {
		return nil, nil, false, append(diags, typeError(attr, want)...)
	}
	var elemRanges []hcl.Range
	if tup, isTup := attr.Expr.(*hclsyntax.TupleConsExpr); isTup {
		for _, e := range tup.Exprs {
			elemRanges = append(elemRanges, e.Range())
		}
	}
	var out []string
	var ranges []hcl.Range
	i := 0
	for it := lv.ElementIterator(); it.Next(); i++ {
		_, ev := it.Element()
		if ev.IsNull() {
			return nil, nil, false, append(diags, typeError(attr, want)...)
		}
		out = append(out, ev.AsString())
		if i < len(elemRanges) {
			ranges = append(ranges, elemRanges[i])
		} else {
			ranges = append(ranges, attr.Expr.Range())
		}
	}
	return out, ranges, true, diags
}

// attrVars accepts an object or map and returns its attributes.
func attrVars(attr attrRef) (map[string]cty.Value, hcl.Diagnostics) {
	if !evaluateAll {
		if obj, ok := attr.Expr.(*hclsyntax.ObjectConsExpr); ok {
			if out, ok := literalObject(obj); ok {
				return out, nil
			}
		}
	}
	return attrVarsEvaluated(attr)
}

// attrVarsEvaluated is attrVars by evaluating the expression.
func attrVarsEvaluated(attr attrRef) (map[string]cty.Value, hcl.Diagnostics) {
	v, ok, diags := evalAttr(attr)
	if !ok {
		return nil, diags
	}
	if !v.Type().IsObjectType() && !v.Type().IsMapType() {
		return nil, append(diags, typeError(attr, "an object, such as { role = \"nsd\" }")...)
	}
	out := map[string]cty.Value{}
	for it := v.ElementIterator(); it.Next(); {
		k, ev := it.Element()
		out[k.AsString()] = ev
	}
	return out, diags
}

// resolvePath joins a relative path with dir. Absolute paths and paths
// starting with "~" are kept as they are.
func resolvePath(dir, p string) string {
	if p == "" || filepath.IsAbs(p) || strings.HasPrefix(p, "~") || dir == "" {
		return p
	}
	return filepath.Join(dir, p)
}
