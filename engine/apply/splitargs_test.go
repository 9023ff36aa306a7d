package apply

import (
	"fmt"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hcldec"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/provadev/prova/engine/eval"
)

// splitArgs must give what hcldec.Decode of the whole body gives, value and
// diagnostics, on every host: the cases cover each kind of attribute spec
// the modules use, arguments left out, unknown arguments, type errors and
// validation errors on either side of the split, sensitive and unknown
// values.
func TestSplitArgsDecodesAsHCLDec(t *testing.T) {
	nonEmpty := func(v cty.Value) hcl.Diagnostics {
		v, _ = v.UnmarkDeep()
		if v.IsKnown() && !v.IsNull() && v.AsString() == "" {
			return hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Empty", Detail: "must not be empty"}}
		}
		return nil
	}
	spec := &hcldec.ObjectSpec{
		"command": &hcldec.ValidateSpec{Wrapped: &hcldec.AttrSpec{Name: "command", Type: cty.String, Required: true}, Func: nonEmpty},
		"check":   &hcldec.ValidateSpec{Wrapped: &hcldec.AttrSpec{Name: "check", Type: cty.String}, Func: nonEmpty},
		"env":     &hcldec.AttrSpec{Name: "env", Type: cty.Map(cty.String)},
		"mode":    &hcldec.DefaultSpec{Primary: &hcldec.AttrSpec{Name: "mode", Type: cty.String}, Default: &hcldec.LiteralSpec{Value: cty.StringVal("0644")}},
		"count":   &hcldec.AttrSpec{Name: "count", Type: cty.Number},
		"fixed":   &hcldec.LiteralSpec{Value: cty.True},
	}
	bodies := []string{
		// The compiled shapes: plain traversals, "${x}", templates, with
		// conversions, nulls, empty strings, marks and unknowns.
		`command = host.vars.mode
check = var.x`,
		`command = "${host.vars.n}"
count = host.vars.n
check = var.x`,
		`command = "${host.vars.mode}"
count = "${host.vars.idx}"
check = var.x`,
		`command = "x"
check = "${step.a.stdout} ${host.name} ${var.x}"`,
		`command = "x"
check = step.a.stdout`,
		`command = "${step.a.stdout}"
count = host.vars.frac
check = var.x`,
		`command = "echo ${host.name}"
env = { A = var.x }
count = host.vars.n`,
		`command = ""
check = "x ${host.name}"`,
		`check = "${host.name}"`,
		`command = "${host.name}"
bogus = 1`,
		`command = "run"
env = host.name`,
		`command = "run"
count = "x${host.name}"`,
		`command = "run"
mode = host.vars.mode`,
		`command = "echo ${var.secret} ${host.name}"
check = var.secret`,
		`command = "echo ${step.a.stdout}"
check = "${host.name}"`,
		`command = "run ${host.name}"
check = ""
env = { "A" = var.missing }`,
		`command = "echo ${host.name} ${host.vars.idx} ${host.vars.frac}"
check = var.x`,
		`command = "echo ${host.vars.mode} ${host.vars.idx}"
check = var.x`,
		`command = "run"
count = "${host.vars.idx}${host.vars.idx}"`,
		`command = "echo ${var.secret} ${host.vars.idx}"
check = var.x`,
		`command = "echo ${var.later}"
check = "${host.name}"`,
	}
	vars := map[string]cty.Value{"x": cty.StringVal("1"), "secret": cty.StringVal("s3cret").Mark("sensitive"),
		"later": cty.UnknownVal(cty.String)}
	hosts := []eval.HostInfo{
		{Name: "n1", Vars: map[string]cty.Value{"n": cty.NumberIntVal(4), "mode": cty.StringVal("0600"),
			"idx": num512(t, "17"), "frac": num512(t, "0.1")}},
		{Name: "n2", Vars: map[string]cty.Value{"n": cty.NumberIntVal(7), "mode": cty.NullVal(cty.String),
			"idx": num512(t, "-0"), "frac": num512(t, "1e30")}},
		{Name: "n3", Vars: map[string]cty.Value{"n": cty.StringVal("8"), "mode": cty.StringVal(""),
			"idx": cty.NumberIntVal(3), "frac": cty.UnknownVal(cty.Number)}},
	}
	aType := cty.Object(map[string]cty.Type{"stdout": cty.String})
	scope := eval.NewScope(vars, hosts, nil, "", map[string]cty.Type{"a": aType})
	scope.Locals = map[string]cty.Value{}
	// Without results (step.a unknown on every host, in the shared
	// context) and with them: a value, unknown, or a sensitive value.
	results := eval.NewResults()
	results.Set("a", "n1", cty.ObjectVal(map[string]cty.Value{"stdout": cty.StringVal("out1")}))
	results.Set("a", "n2", cty.UnknownVal(aType))
	results.Set("a", "n3", cty.ObjectVal(map[string]cty.Value{"stdout": cty.StringVal("s").Mark("sensitive")}))
	compiled := 0
	for i, src := range bodies {
		f, diags := hclsyntax.ParseConfig([]byte(src), fmt.Sprintf("b%d.hcl", i), hcl.InitialPos)
		if diags.HasErrors() {
			t.Fatal(diags)
		}
		for _, res := range []*eval.Results{nil, results} {
			ss := scope.Step(res, eval.RefsOf(hcldec.Variables(f.Body, spec)), cty.NilVal)
			shared := ss.Context()
			sa := newSplitArgs(f.Body, spec, ss)
			if sa == nil {
				t.Fatal("newSplitArgs refused an object of attribute specs")
			}
			if len(sa.hostSpec) == 0 || len(sa.constSpec) == 0 {
				t.Fatalf("body %d: split into %d per-host and %d shared keys, want both sides", i, len(sa.hostSpec), len(sa.constSpec))
			}
			for _, h := range hosts {
				for _, ha := range sa.hostAttrs {
					if _, ok := ha.value(h.Name); ok {
						compiled++
					}
				}
				hctx := ss.Host(h.Name, cty.NilVal)
				want, wd := hcldec.Decode(f.Body, spec, hctx)
				got, gd, known := sa.decode(shared, h.Name, func() *hcl.EvalContext { return ss.Host(h.Name, cty.NilVal) })
				if !got.RawEquals(want) {
					t.Errorf("body %d on %s: %#v, hcldec %#v", i, h.Name, got, want)
				}
				if known != want.IsWhollyKnown() {
					t.Errorf("body %d on %s: known %v, IsWhollyKnown %v", i, h.Name, known, want.IsWhollyKnown())
				}
				if d := cmp.Diff(diagLines(wd), diagLines(gd)); d != "" {
					t.Errorf("body %d on %s: diagnostics (-hcldec +split):\n%s", i, h.Name, d)
				}
			}
		}
	}
	// The compiled form must have given most per-host values: a split
	// that always fell back to hcldec would test only hcldec.
	if compiled < 40 {
		t.Errorf("the compiled form gave %d per-host values", compiled)
	}
	t.Logf("%d compiled per-host values", compiled)
}

// num512 is a number as HCL parses a literal, at 512 bits.
func num512(t *testing.T, s string) cty.Value {
	t.Helper()
	v, err := cty.ParseNumberVal(s)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func TestSplitArgsRefusesOtherShapes(t *testing.T) {
	f, _ := hclsyntax.ParseConfig([]byte(`x = 1`), "x.hcl", hcl.InitialPos)
	for _, spec := range []hcldec.Spec{
		&hcldec.AttrSpec{Name: "x", Type: cty.Number},
		&hcldec.ObjectSpec{"b": &hcldec.BlockListSpec{TypeName: "b", Nested: &hcldec.ObjectSpec{}}},
	} {
		if newSplitArgs(f.Body, spec, nil) != nil {
			t.Errorf("newSplitArgs(%T) prepared a split", spec)
		}
	}
}

// diagLines is diags in a comparable form, sorted: hcldec walks an
// object's keys in map order, so the order is not part of its answer.
func diagLines(diags hcl.Diagnostics) []string {
	var out []string
	for _, d := range diags {
		out = append(out, fmt.Sprintf("%d %s: %s @ %v", d.Severity, d.Summary, d.Detail, d.Subject))
	}
	slices.Sort(out)
	return out
}
