package eval

import (
	"fmt"
	"maps"
	"slices"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
)

// TestListArgMatchesConversion holds the functions listArg wraps to what
// the same functions give when hcl converts their argument itself: value
// (type, marks, refinements), and diagnostics (severity, summary, detail,
// ranges), for the expressions real runbooks write over per_host and for
// arguments of every shape, right and wrong.
func TestListArgMatchesConversion(t *testing.T) {
	plain := Functions()
	for name, f := range listFuncs() {
		plain[name] = f // hcl converts the argument, as before listArg
	}
	fast := Functions()

	exprs := []string{
		// The forms of runbooks/ and the scale benchmark.
		`alltrue([for h, r in per_host.x : r.rc == 0])`,
		`anytrue([for h, r in per_host.x : r.rc != 0])`,
		`alltrue([for h, r in per_host.x : !r.rdma || r.waived])`,
		`alltrue([for h in local.core_nodes : try(per_host.x[h].rdma, false)])`,
		`alltrue([for p in local.ports : can(regex("^[A-Za-z0-9_.-]+(/[0-9]+){0,2}$", p))])`,
		`sum([for h, r in per_host.x : r.rc])`,
		`mean([for h, r in per_host.x : r.rc])`,
		`median([for h, r in per_host.x : r.rc])`,
		`sum([for h, r in per_host.x : r.rc if r.rdma])`,
		`alltrue([for h, r in per_host.x : r.rc == 0 if r.rdma])`,
	}
	perHostExprs := len(exprs)
	for _, f := range slices.Sorted(maps.Keys(listFuncs())) {
		exprs = append(exprs, f+"(local.v)", f+"([local.v])", f+"([local.v, true])", f+"([local.v, 1])",
			f+"([true, local.v, false])", f+"([])", f+"(local.v...)", f+"()", f+"(local.v, local.v)")
	}
	values := map[string]cty.Value{
		"null":             cty.NullVal(cty.DynamicPseudoType),
		"null list":        cty.NullVal(cty.List(cty.Bool)),
		"null tuple":       cty.NullVal(cty.Tuple([]cty.Type{cty.Bool})),
		"dynamic":          cty.DynamicVal,
		"unknown list":     cty.UnknownVal(cty.List(cty.Bool)),
		"unknown tuple":    cty.UnknownVal(cty.Tuple([]cty.Type{cty.Bool, cty.Bool})),
		"unknown notnull":  cty.UnknownVal(cty.List(cty.Number)).RefineNotNull(),
		"true":             cty.True,
		"number":           cty.NumberIntVal(3),
		"string":           cty.StringVal("true"),
		"string x":         cty.StringVal("x"),
		"bools":            cty.TupleVal([]cty.Value{cty.True, cty.False, cty.True}),
		"all true":         cty.TupleVal([]cty.Value{cty.True, cty.True}),
		"numbers":          cty.TupleVal([]cty.Value{cty.NumberIntVal(1), cty.NumberIntVal(5), cty.NumberFloatVal(2.5)}),
		"one number":       cty.TupleVal([]cty.Value{cty.NumberIntVal(7)}),
		"mixed":            cty.TupleVal([]cty.Value{cty.True, cty.StringVal("false"), cty.NumberIntVal(1)}),
		"strings":          cty.TupleVal([]cty.Value{cty.StringVal("1"), cty.StringVal("2")}),
		"bad strings":      cty.TupleVal([]cty.Value{cty.StringVal("yes"), cty.StringVal("2")}),
		"with null":        cty.TupleVal([]cty.Value{cty.True, cty.NullVal(cty.Bool)}),
		"with null number": cty.TupleVal([]cty.Value{cty.NumberIntVal(1), cty.NullVal(cty.Number)}),
		"with unknown":     cty.TupleVal([]cty.Value{cty.True, cty.UnknownVal(cty.Bool)}),
		"with unknown num": cty.TupleVal([]cty.Value{cty.NumberIntVal(1), cty.UnknownVal(cty.Number).RefineNotNull()}),
		"with dynamic":     cty.TupleVal([]cty.Value{cty.True, cty.DynamicVal}),
		"marked":           cty.TupleVal([]cty.Value{cty.True, cty.False}).Mark("sensitive"),
		"marked element":   cty.TupleVal([]cty.Value{cty.True, cty.False.Mark("sensitive")}),
		"marked number":    cty.TupleVal([]cty.Value{cty.NumberIntVal(2).Mark("sensitive"), cty.NumberIntVal(4)}),
		"empty tuple":      cty.EmptyTupleVal,
		"list":             cty.ListVal([]cty.Value{cty.True, cty.False}),
		"number list":      cty.ListVal([]cty.Value{cty.NumberIntVal(4), cty.NumberIntVal(2)}),
		"string list":      cty.ListVal([]cty.Value{cty.StringVal("true")}),
		"set":              cty.SetVal([]cty.Value{cty.True}),
		"number set":       cty.SetVal([]cty.Value{cty.NumberIntVal(4), cty.NumberIntVal(2)}),
		"map":              cty.MapVal(map[string]cty.Value{"a": cty.True}),
		"object":           cty.ObjectVal(map[string]cty.Value{"a": cty.True}),
		"nested":           cty.TupleVal([]cty.Value{cty.TupleVal([]cty.Value{cty.True})}),
		"list of lists":    cty.TupleVal([]cty.Value{cty.ListVal([]cty.Value{cty.True})}),
	}
	perHost := func(n int, rc func(i int) cty.Value) cty.Value {
		hosts := map[string]cty.Value{}
		for i := range n {
			hosts[fmt.Sprintf("n%04d", i)] = cty.ObjectVal(map[string]cty.Value{
				"rc": rc(i), "rdma": cty.BoolVal(i%3 != 1), "waived": cty.BoolVal(i%5 == 0)})
		}
		return cty.ObjectVal(hosts)
	}
	hostSets := map[string]cty.Value{
		"1000 ok":       perHost(1000, func(int) cty.Value { return cty.NumberIntVal(0) }),
		"1000 one fail": perHost(1000, func(i int) cty.Value { return cty.NumberIntVal(int64(i / 999)) }),
		"3 mixed":       perHost(3, func(i int) cty.Value { return cty.NumberIntVal(int64(i)) }),
		"unknown rc": perHost(4, func(i int) cty.Value {
			return map[bool]cty.Value{true: cty.UnknownVal(cty.Number), false: cty.Zero}[i == 2]
		}),
		"null rc": perHost(3, func(i int) cty.Value {
			return map[bool]cty.Value{true: cty.NullVal(cty.Number), false: cty.Zero}[i == 1]
		}),
		"sensitive rc": perHost(3, func(i int) cty.Value { return cty.NumberIntVal(int64(i)).Mark("sensitive") }),
		"no hosts":     cty.EmptyObjectVal,
		"unknown":      cty.DynamicVal,
	}
	ports := cty.TupleVal([]cty.Value{cty.StringVal("mlx5_0/1"), cty.StringVal("bad port")})
	core := cty.TupleVal([]cty.Value{cty.StringVal("n0001"), cty.StringVal("n0002"), cty.StringVal("nope")})

	n := 0
	for i, src := range exprs {
		expr, diags := hclsyntax.ParseExpression([]byte(src), "t.hcl", hcl.InitialPos)
		if diags.HasErrors() {
			t.Fatalf("%s: %s", src, diags)
		}
		hks, vks := slices.Sorted(maps.Keys(hostSets)), slices.Sorted(maps.Keys(values))
		if i < perHostExprs {
			vks = []string{"bools"} // they do not read local.v
		} else {
			hks = []string{"3 mixed"} // they do not read per_host
		}
		for _, hk := range hks {
			for _, vk := range vks {
				vars := map[string]cty.Value{
					"per_host": cty.ObjectVal(map[string]cty.Value{"x": hostSets[hk]}),
					"local":    cty.ObjectVal(map[string]cty.Value{"v": values[vk], "ports": ports, "core_nodes": core}),
				}
				want, wd := expr.Value(&hcl.EvalContext{Variables: vars, Functions: plain})
				got, gd := expr.Value(&hcl.EvalContext{Variables: vars, Functions: fast})
				n++
				if want.GoString() != got.GoString() || !want.RawEquals(got) {
					t.Errorf("%s with per_host %s, v %s:\n got %#v\nwant %#v", src, hk, vk, got, want)
				}
				if g, w := diagText(gd), diagText(wd); g != w {
					t.Errorf("%s with per_host %s, v %s: diagnostics\n got %s\nwant %s", src, hk, vk, g, w)
				}
			}
		}
	}
	if n < 500 {
		t.Fatalf("only %d cases compared", n)
	}
}

func diagText(diags hcl.Diagnostics) string {
	s := ""
	for _, d := range diags {
		s += fmt.Sprintf("[%d %q %q %v %v]", d.Severity, d.Summary, d.Detail, d.Subject, d.Context)
	}
	return s
}

// TestListArgRefusesOtherFunctions: listArg is for functions of one list
// of a primitive type only.
func TestListArgRefusesOtherFunctions(t *testing.T) {
	for name, f := range map[string]function.Function{"two params": strPredicate(nil), "list of any": makeToFunc(cty.List(cty.DynamicPseudoType))} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: listArg accepted it", name)
				}
			}()
			listArg(f, nil)
		}()
	}
}
