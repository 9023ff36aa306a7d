package eval

import (
	"math"
	"math/big"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
)

// templateValues are values a template part can take: numbers of every
// precision the engine meets (HCL literals at 512 bits, cty's integers at
// 64, floats at 53, and odd ones), at the edges of exactInt's rule, and
// values the fast path must leave to hcl.
func templateValues(t *testing.T) []cty.Value {
	t.Helper()
	parse := func(s string) cty.Value {
		v, err := cty.ParseNumberVal(s) // 512 bits, as HCL parses literals
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	prec := func(p uint, x string) cty.Value {
		f, _, err := big.ParseFloat(x, 10, p, big.ToNearestEven)
		if err != nil {
			t.Fatal(err)
		}
		return cty.NumberVal(f)
	}
	vals := []cty.Value{
		parse("0"), parse("-0"), parse("1"), parse("-1"), parse("42"), parse("1234567"),
		parse("9007199254740993"), parse("9223372036854775807"), parse("-9223372036854775808"),
		parse("9223372036854775808"), parse("1e20"), parse("1e300"), parse("0.5"), parse("-2.25"),
		parse("3.14159265358979323846264338327950288"), parse("1200"), parse("100000"),
		cty.NumberIntVal(0), cty.NumberIntVal(7), cty.NumberIntVal(-7), cty.NumberIntVal(math.MaxInt64),
		cty.NumberIntVal(math.MinInt64), cty.NumberIntVal(1 << 62),
		cty.NumberFloatVal(0.1), cty.NumberFloatVal(3), cty.NumberFloatVal(1 << 60), cty.NumberFloatVal(1<<52 + 1),
		cty.NumberFloatVal(math.Copysign(0, -1)), cty.NumberFloatVal(1e22),
		prec(8, "255"), prec(8, "256"), prec(8, "257"), prec(8, "127"), prec(8, "128"), prec(4, "17"),
		prec(64, "18446744073709551615"), prec(1000, "123456789"), prec(2, "3"), prec(2, "6"),
		cty.StringVal("a"), cty.StringVal(""), cty.StringVal("e\u0301"), cty.StringVal("\u0301x"),
		cty.True, cty.False,
		cty.NullVal(cty.String), cty.NullVal(cty.Number), cty.UnknownVal(cty.String), cty.UnknownVal(cty.Number),
		cty.DynamicVal, cty.StringVal("secret").Mark("sensitive"), cty.NumberIntVal(3).Mark("sensitive"),
		cty.ListVal([]cty.Value{cty.StringVal("x")}), cty.EmptyObjectVal,
	}
	return vals
}

// FastTemplate gives what the template's own Value gives, value,
// refinements, marks and diagnostics, for every pair of part values.
func TestFastTemplateMatchesHCL(t *testing.T) {
	srcs := []string{`"${a}${b}"`, `"x ${a} y ${b} z"`, `"${a}e${b}"`, `"${a}\u0301${b}"`, `"${a}${b}${upper(a)}"`}
	vals := templateValues(t)
	for _, src := range srcs {
		expr, diags := hclsyntax.ParseTemplate([]byte(src[1:len(src)-1]), "t.hcl", hcl.InitialPos)
		if diags.HasErrors() {
			t.Fatal(diags)
		}
		fast := FastTemplate(expr)
		if _, ok := fast.(fastTemplate); !ok {
			t.Fatalf("%s: not wrapped", src)
		}
		if hcl.UnwrapExpression(fast) != expr {
			t.Fatalf("%s: does not unwrap to the template", src)
		}
		for _, a := range vals {
			for _, b := range vals {
				ctx := &hcl.EvalContext{
					Variables: map[string]cty.Value{"a": a, "b": b},
					Functions: Functions(),
				}
				want, wantDiags := expr.Value(ctx)
				got, gotDiags := fast.Value(ctx)
				if !got.RawEquals(want) {
					t.Errorf("%s with a=%#v b=%#v: got %#v, want %#v", src, a, b, got, want)
				}
				if gotDiags.Error() != wantDiags.Error() {
					t.Errorf("%s with a=%#v b=%#v: diagnostics %q, want %q", src, a, b, gotDiags.Error(), wantDiags.Error())
				}
			}
		}
	}
}

// exactInt agrees with cty's conversion wherever it answers, and answers
// for the integers the engine meets.
func TestExactIntMatchesConvert(t *testing.T) {
	answered := 0
	for _, v := range templateValues(t) {
		if v.IsMarked() || !v.IsKnown() || v.IsNull() || v.Type() != cty.Number {
			continue
		}
		s, ok := exactInt(v.AsBigFloat())
		if !ok {
			continue
		}
		answered++
		want, err := convert.Convert(v, cty.String)
		if err != nil {
			t.Fatal(err)
		}
		if s != want.AsString() {
			t.Errorf("%v (precision %d): exactInt %q, cty %q", v.AsBigFloat(), v.AsBigFloat().Prec(), s, want.AsString())
		}
	}
	for i := int64(-3000); i <= 3000; i++ {
		for _, v := range []cty.Value{cty.NumberIntVal(i), cty.NumberIntVal(i * 1_000_003)} {
			want, _ := convert.Convert(v, cty.String)
			if s, ok := exactInt(v.AsBigFloat()); ok && s != want.AsString() {
				t.Fatalf("%d: exactInt %q, cty %q", i, s, want.AsString())
			}
		}
	}
	if answered < 15 {
		t.Errorf("exactInt answered for %d values only", answered)
	}
	for _, src := range []string{"1", "42", "2000", "-17"} {
		v, _ := cty.ParseNumberVal(src)
		if _, ok := exactInt(v.AsBigFloat()); !ok {
			t.Errorf("%s at 512 bits: not taken by the fast path", src)
		}
	}
}

// Anything but a template of several parts is returned as it is.
func TestFastTemplateLeavesOthers(t *testing.T) {
	for _, src := range []string{`"${a}"`, `"plain"`, `a`, `a + 1`} {
		expr, diags := hclsyntax.ParseExpression([]byte(src), "t.hcl", hcl.InitialPos)
		if diags.HasErrors() {
			t.Fatal(diags)
		}
		if FastTemplate(expr) != expr {
			t.Errorf("%s: wrapped", src)
		}
	}
}
