package eval

import (
	"fmt"
	"math/big"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
)

// chooser is where a generated case takes its choices from: a seeded
// generator in the test, the fuzzer's bytes in the fuzz target.
type chooser interface{ IntN(n int) int }

type bytesChooser struct {
	b []byte
	i int
}

func (c *bytesChooser) IntN(n int) int {
	if c.i >= len(c.b) {
		return 0
	}
	c.i++
	return int(c.b[c.i-1]) % n
}

var sensitive = "sensitive"

// genNumber is an exit status as prova records it, or one of the numbers
// an expression could make: a fraction, a number parsed at cty's
// precision, a negative zero, a big one.
func genNumber(c chooser) cty.Value {
	switch c.IntN(10) {
	case 0:
		return cty.NumberFloatVal(0.5)
	case 1:
		return cty.MustParseNumberVal("1")
	case 2:
		return cty.NumberVal(new(big.Float).SetPrec(24).SetInt64(2))
	case 3:
		return cty.NumberVal(new(big.Float).Neg(new(big.Float)))
	case 4:
		return cty.MustParseNumberVal("123456789012345678901234567890")
	default:
		return RCVal(c.IntN(4))
	}
}

func mark(c chooser, v cty.Value, oneIn int) cty.Value {
	if c.IntN(oneIn) == 0 {
		return v.Mark(sensitive)
	}
	return v
}

// genAttr is a result attribute of type ty, now and then unknown, null,
// marked or of another type.
func genAttr(c chooser, ty cty.Type, known func(chooser) cty.Value) cty.Value {
	switch c.IntN(24) {
	case 0:
		return cty.UnknownVal(ty)
	case 1:
		return cty.NullVal(ty)
	case 2:
		return known(c).Mark(sensitive)
	case 3:
		return cty.StringVal("0")
	case 4:
		return cty.UnknownVal(ty).RefineNotNull()
	default:
		return known(c)
	}
}

func genResult(c chooser, uniform bool) cty.Value {
	attrs := map[string]cty.Value{
		"rc":      genAttr(c, cty.Number, genNumber),
		"changed": genAttr(c, cty.Bool, func(c chooser) cty.Value { return cty.BoolVal(c.IntN(2) == 0) }),
		"stdout":  genAttr(c, cty.String, func(c chooser) cty.Value { return cty.StringVal([]string{"", "ok", "Ok", "a\nb"}[c.IntN(4)]) }),
		"status":  cty.StringVal([]string{"ok", "changed", "failed", "skipped"}[c.IntN(4)]),
	}
	if uniform {
		attrs["rc"] = genNumber(c)
		attrs["changed"] = cty.BoolVal(c.IntN(2) == 0)
		attrs["stdout"] = cty.StringVal("ok")
	}
	if !uniform && c.IntN(12) == 0 {
		delete(attrs, "rc")
	}
	v := cty.ObjectVal(attrs)
	switch {
	case uniform:
	case c.IntN(30) == 0:
		return cty.UnknownVal(v.Type())
	case c.IntN(30) == 0:
		return cty.NullVal(v.Type())
	case c.IntN(40) == 0:
		return cty.StringVal("not a result")
	}
	return mark(c, v, 30)
}

// genCollection is a collection of results by host: an object as
// per_host is, or a map, a list, a tuple, a set, or something that is not
// one.
func genCollection(c chooser) cty.Value {
	n := c.IntN(7)
	if c.IntN(6) == 0 {
		n = 40 + c.IntN(60)
	}
	kind := c.IntN(12)
	uniform := kind >= 6 && kind <= 8 // map, list, set need one element type
	hosts := map[string]cty.Value{}
	var elems []cty.Value
	for i := range n {
		r := genResult(c, uniform)
		hosts[fmt.Sprintf("n%04d", i+1)] = r
		elems = append(elems, r)
	}
	var v cty.Value
	switch kind {
	case 6:
		if len(hosts) == 0 {
			v = cty.MapValEmpty(cty.DynamicPseudoType)
		} else {
			v = cty.MapVal(hosts)
		}
	case 7:
		if len(elems) == 0 {
			v = cty.ListValEmpty(cty.DynamicPseudoType)
		} else {
			v = cty.ListVal(elems)
		}
	case 8:
		if len(elems) == 0 {
			v = cty.SetValEmpty(cty.DynamicPseudoType)
		} else {
			v = cty.SetVal(elems)
		}
	case 9:
		v = cty.TupleVal(elems)
	case 10:
		v = [...]cty.Value{cty.NullVal(cty.DynamicPseudoType), cty.DynamicVal, cty.StringVal("x"), cty.NumberIntVal(3),
			cty.UnknownVal(cty.EmptyObject), cty.NullVal(cty.Map(cty.String))}[c.IntN(6)]
	default:
		v = cty.ObjectVal(hosts)
	}
	return mark(c, v, 25)
}

// genBody is an expression over the iteration variables h and r (and the
// outer o), of the kinds assertions write and of kinds they rarely do.
func genBody(c chooser, depth int) string {
	atoms := []string{"r.rc", "r.changed", "r.stdout", "r.status", "h", "r", "r.missing", "0", "1", `"0"`, "true", "false",
		"null", "o.n", "o.s", "r[\"rc\"]", "r.rc / 3", "r.rc + 1", "-r.rc"}
	if depth <= 0 || c.IntN(3) == 0 {
		return atoms[c.IntN(len(atoms))]
	}
	a, b := genBody(c, depth-1), genBody(c, depth-1)
	switch c.IntN(16) {
	case 0:
		return a + " == " + b
	case 1:
		return a + " != " + b
	case 2:
		return a + " && " + b
	case 3:
		return a + " || " + b
	case 4:
		return "!" + a
	case 5:
		return "(" + a + ")"
	case 6:
		return "r.rc " + []string{"==", "!=", "<", ">="}[c.IntN(4)] + " " + []string{"0", "1", "o.n", "\"0\""}[c.IntN(4)]
	case 7:
		return "length(" + a + ")"
	case 8:
		return "tostring(" + a + ")"
	case 9:
		return a + " ? " + b + " : " + genBody(c, depth-1)
	case 10:
		return "can(" + a + ")"
	case 11:
		return "try(" + a + ", " + b + ")"
	case 12:
		return "contains([\"ok\", \"changed\"], " + a + ")"
	case 13:
		return "[for x in [1, 2] : " + a + "]"
	case 14:
		return "upper(" + a + ")"
	default:
		return a + " < " + b
	}
}

func genFor(c chooser) string {
	coll := []string{"per_host.x", "per_host.y", "coll", "o"}[c.IntN(4)]
	vars := []string{"h, r", "h, r", "r", "r, r", "h, h"}[c.IntN(5)]
	s := "[for " + vars + " in " + coll + " : " + genBody(c, 3)
	if c.IntN(3) == 0 {
		s += " if " + genBody(c, 2)
	}
	if c.IntN(12) == 0 {
		s = "{for " + vars + " in " + coll + " : " + "tostring(r.rc) => r.status"
		if c.IntN(2) == 0 {
			s += "..."
		}
		return s + "}"
	}
	return s + "]"
}

// genTop is an expression with a for expression at its top, as
// assertions write it, or another one.
func genTop(c chooser) string {
	f := genFor(c)
	switch c.IntN(16) {
	case 0:
		return "anytrue(" + f + ")"
	case 1:
		return "length(" + f + ") == " + []string{"0", "1", "o.n"}[c.IntN(3)]
	case 2:
		return []string{"sum", "mean", "median", "alltrue"}[c.IntN(4)] + "(" + f + ")"
	case 3:
		return "max(" + f + "...)"
	case 4:
		return f
	case 5:
		return "!alltrue(" + f + ")"
	case 6:
		return "alltrue(" + f + ") && anytrue(" + genFor(c) + ")"
	case 7:
		return "(alltrue(" + f + "))"
	case 8:
		return "can(" + f + ")"
	case 9:
		return "concat(" + f + ", [o.n])"
	case 10:
		return "length(" + f + ", 1)"
	case 11:
		return "nosuch(" + f + ")"
	case 12:
		return "o.n > 0 || alltrue(" + f + ")"
	case 13:
		return "-length(" + f + ")"
	default:
		return "alltrue(" + f + ")"
	}
}

func genContext(c chooser) *hcl.EvalContext {
	perHost := map[string]cty.Value{"x": genCollection(c), "y": genCollection(c)}
	o := cty.ObjectVal(map[string]cty.Value{"n": genNumber(c), "s": cty.StringVal("ok")})
	vars := map[string]cty.Value{"per_host": cty.ObjectVal(perHost), "coll": genCollection(c), "o": mark(c, o, 20)}
	if c.IntN(20) == 0 {
		vars["per_host"] = cty.UnknownVal(cty.Object(map[string]cty.Type{"x": perHost["x"].Type(), "y": perHost["y"].Type()}))
	}
	return &hcl.EvalContext{Variables: vars, Functions: Functions()}
}

// sameDiags compares what a diagnostic tells: severity, summary, detail
// and ranges.
func sameDiags(a, b hcl.Diagnostics) bool {
	if len(a) != len(b) {
		return false
	}
	rng := func(r *hcl.Range) string {
		if r == nil {
			return ""
		}
		return r.String()
	}
	for i := range a {
		if a[i].Severity != b[i].Severity || a[i].Summary != b[i].Summary || a[i].Detail != b[i].Detail ||
			rng(a[i].Subject) != rng(b[i].Subject) || rng(a[i].Context) != rng(b[i].Context) {
			return false
		}
	}
	return true
}

// checkCase evaluates src both ways and reports whether the fast way gave
// the value (rather than handing back to hcl).
func checkCase(t *testing.T, src string, ctx *hcl.EvalContext) bool {
	t.Helper()
	expr, diags := hclsyntax.ParseExpression([]byte(src), "t.hcl", hcl.InitialPos)
	if diags.HasErrors() {
		t.Fatalf("%s: %s", src, diags.Error())
	}
	want, wantDiags := expr.Value(ctx)
	got, gotDiags := Value(expr, ctx)
	if !got.RawEquals(want) || got.GoString() != want.GoString() {
		t.Fatalf("%s:\nValue gives %#v\n    hcl gives %#v\ncontext: %#v", src, got, want, ctx.Variables)
	}
	if !sameDiags(gotDiags, wantDiags) {
		t.Fatalf("%s:\nValue gives %v\n    hcl gives %v", src, gotDiags, wantDiags)
	}
	fast := false
	if n := compileTop(expr); n != nil {
		_, fast = n.value(ctx)
	}
	if fast && len(wantDiags) > 0 {
		t.Fatalf("%s: the fast way gave a value where hcl gives diagnostics %v", src, wantDiags)
	}
	return fast
}

// TestValueMatchesHCL holds Value to hcl's own evaluation over random for
// expressions of assertions' shapes and random collections of results
// (unknown, null, marked, of the wrong type, missing attributes, numbers
// of every precision), and checks that the fast way is taken often
// enough for the comparison to mean something.
func TestValueMatchesHCL(t *testing.T) {
	cases := 1500
	if testing.Short() {
		cases = 500
	}
	r := rand.New(rand.NewPCG(15, 7))
	fast := 0
	for range cases {
		ctx := genContext(r)
		for range 3 {
			if checkCase(t, genTop(r), ctx) {
				fast++
			}
		}
	}
	if fast < cases/4 {
		t.Errorf("the fast way gave %d of %d values: the comparison tests hcl against itself", fast, 3*cases)
	}
}

// TestValueShapes names the shapes assertions write and whether the fast
// way takes them.
func TestValueShapes(t *testing.T) {
	hosts := map[string]cty.Value{}
	for i := range 300 {
		rc := 0
		if i == 17 {
			rc = 2
		}
		hosts[fmt.Sprintf("n%04d", i)] = cty.ObjectVal(map[string]cty.Value{
			"rc": RCVal(rc), "changed": cty.BoolVal(i%2 == 0), "stdout": cty.StringVal("ok"), "status": cty.StringVal("ok")})
	}
	ctx := &hcl.EvalContext{Variables: map[string]cty.Value{"per_host": cty.ObjectVal(map[string]cty.Value{
		"x": cty.ObjectVal(hosts), "u": cty.UnknownVal(cty.ObjectVal(hosts).Type())})}, Functions: Functions()}
	for _, c := range []struct {
		src  string
		fast bool
	}{
		{"alltrue([for h, r in per_host.x : r.rc == 0])", true},
		{"anytrue([for h, r in per_host.x : r.changed])", true},
		{"length([for h, r in per_host.x : h if r.rc != 0]) == 0", true},
		{"[for h, r in per_host.x : h if r.rc != 0]", true},
		{"sum([for r in per_host.x : r.rc])", true},
		{"!alltrue([for h, r in per_host.x : r.rc == 0 && r.stdout == \"ok\"])", true},
		{"max([for r in per_host.x : r.rc]...)", false},
		{"{for h, r in per_host.x : h => r.rc}", false},
		{"alltrue([for h, r in per_host.u : r.rc == 0])", false}, // unknown: hcl's unknown
		{"alltrue([for h, r in per_host.x : r.nosuch == 0])", false},
		{"can([for h, r in per_host.x : r.rc])", false},
	} {
		if got := checkCase(t, c.src, ctx); got != c.fast {
			t.Errorf("%s: fast way %v, want %v", c.src, got, c.fast)
		}
	}
}

// FuzzValueMatchesHCL is TestValueMatchesHCL with the fuzzer's choices.
func FuzzValueMatchesHCL(f *testing.F) {
	for _, s := range []string{"", "\x00\x01\x02", strings.Repeat("\x07\x03", 40), strings.Repeat("\xff\x10\x21", 30)} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		c := &bytesChooser{b: b}
		ctx := genContext(c)
		checkCase(t, genTop(c), ctx)
	})
}

// benchPerHost is per_host.x of 1,000 shell results, all rc 0.
func benchPerHost() *hcl.EvalContext {
	hosts := map[string]cty.Value{}
	for i := range 1000 {
		hosts[fmt.Sprintf("n%04d", i+1)] = cty.ObjectVal(map[string]cty.Value{
			"rc": RCVal(0), "changed": cty.True, "stdout": cty.StringVal("ok"), "status": cty.StringVal("changed")})
	}
	return &hcl.EvalContext{Variables: map[string]cty.Value{"per_host": cty.ObjectVal(map[string]cty.Value{
		"x": cty.ObjectVal(hosts)})}, Functions: Functions()}
}

// BenchmarkAllTrueOverPerHost is the scale runbook's run_once assertion
// over 1,000 results, by hcl and by Value.
func BenchmarkAllTrueOverPerHost(b *testing.B) {
	ctx := benchPerHost()
	expr, diags := hclsyntax.ParseExpression([]byte("alltrue([for h, r in per_host.x : r.rc == 0])"), "b.hcl", hcl.InitialPos)
	if diags.HasErrors() {
		b.Fatal(diags)
	}
	for _, c := range []struct {
		name string
		eval func() (cty.Value, hcl.Diagnostics)
	}{
		{"hcl", func() (cty.Value, hcl.Diagnostics) { return expr.Value(ctx) }},
		{"Value", func() (cty.Value, hcl.Diagnostics) { return Value(expr, ctx) }},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if v, d := c.eval(); d.HasErrors() || !v.True() {
					b.Fatal(v, d)
				}
			}
		})
	}
}

// TestCompileTopOfOtherShapes: an expression with no for expression at
// its top is hcl's alone, and looking costs no allocation (Value runs on
// every host's conditions).
func TestCompileTopOfOtherShapes(t *testing.T) {
	for _, src := range []string{`step.x.rc == 0`, `contains(host.groups, "g01") && !false`, `length(keys(per_host.x)) > 0`,
		`{for h, r in per_host.x : h => r.rc}`, `max([for r in per_host.x : r.rc]...)`, `"${upper(host.name)}"`} {
		expr, diags := hclsyntax.ParseExpression([]byte(src), "t.hcl", hcl.InitialPos)
		if diags.HasErrors() {
			t.Fatal(diags)
		}
		syn := expr
		if n := compileTop(syn); n != nil {
			t.Errorf("%s: compiled, want hcl's", src)
		}
		if a := testing.AllocsPerRun(100, func() { compileTop(syn) }); a != 0 {
			t.Errorf("%s: %v allocations to look", src, a)
		}
	}
}
