package eval

import (
	"math/big"
	"math/bits"
	"strconv"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
)

// FastTemplate returns expr wrapped so that a string template
// ("echo ${host.name} ${host.vars.idx}") is rendered without cty's
// number-to-string conversion when its parts are plain known values; any
// other expression is returned as it is.
//
// cty converts a number to a string with big.Float.Text('f', -1) at the
// precision the number has, and HCL parses numbers at 512 bits: about
// 30 µs per conversion whatever the value, the largest single cost of
// planning 2,000 hosts. An integer that its precision holds exactly has
// one shortest decimal form, its digits, which strconv writes at once;
// every other number still goes through cty. The value and diagnostics
// are those of the template's own Value: whenever a part is null,
// unknown, marked, not a string, number or bool, or gives diagnostics,
// the template is evaluated by hcl as it is (template_test.go holds the
// two to the same results).
func FastTemplate(expr hcl.Expression) hcl.Expression {
	if t, ok := expr.(*hclsyntax.TemplateExpr); ok && len(t.Parts) > 1 {
		return fastTemplate{t}
	}
	return expr
}

// fastTemplate is a template with a cheaper rendering of plain parts. It
// is an hcl.Expression like the template it wraps, and unwraps to it.
type fastTemplate struct{ t *hclsyntax.TemplateExpr }

func (f fastTemplate) Value(ctx *hcl.EvalContext) (cty.Value, hcl.Diagnostics) {
	var b strings.Builder
	for _, part := range f.t.Parts {
		v, diags := part.Value(ctx)
		if len(diags) > 0 || !appendPlain(&b, v) {
			return f.t.Value(ctx)
		}
	}
	return cty.StringVal(b.String()).RefineNotNull(), nil
}

// appendPlain writes what cty's conversion to string gives for v and
// reports true, or reports false when v is not a plain known value.
func appendPlain(b *strings.Builder, v cty.Value) bool {
	if v.IsNull() || !v.IsKnown() || v.IsMarked() {
		return false
	}
	switch v.Type() {
	case cty.String:
		b.WriteString(v.AsString())
		return true
	case cty.Bool:
		if True(v) {
			b.WriteString("true")
		} else {
			b.WriteString("false")
		}
		return true
	case cty.Number:
		if s, ok := exactInt(v.AsBigFloat()); ok {
			b.WriteString(s)
			return true
		}
		s, err := convert.Convert(v, cty.String)
		if err != nil {
			return false
		}
		b.WriteString(s.AsString())
		return true
	}
	return false
}

// exactInt returns f's decimal digits when f is an integer of an int64
// whose magnitude its precision holds with room to spare (the gap between
// neighbouring values at that precision at most one half, so no shorter
// decimal rounds to f): then Text('f', -1) is exactly those digits. Zero
// is left to Text, which writes a negative zero as "-0".
func exactInt(f *big.Float) (string, bool) {
	if f.Sign() == 0 || !f.IsInt() {
		return "", false
	}
	i, acc := f.Int64()
	if acc != big.Exact {
		return "", false
	}
	mag := uint64(i)
	if i < 0 {
		mag = -mag
	}
	if bits.Len64(mag) >= int(f.Prec()) {
		return "", false
	}
	return strconv.FormatInt(i, 10), true
}

func (f fastTemplate) Variables() []hcl.Traversal       { return f.t.Variables() }
func (f fastTemplate) Range() hcl.Range                 { return f.t.Range() }
func (f fastTemplate) StartRange() hcl.Range            { return f.t.StartRange() }
func (f fastTemplate) UnwrapExpression() hcl.Expression { return f.t }
