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
	shared := &hcl.EvalContext{Variables: map[string]cty.Value{
		"var": cty.ObjectVal(map[string]cty.Value{"x": cty.StringVal("1"), "secret": cty.StringVal("s3cret").Mark("sensitive"),
			"later": cty.UnknownVal(cty.String)}),
	}}
	hosts := []cty.Value{
		cty.ObjectVal(map[string]cty.Value{"name": cty.StringVal("n1"), "vars": cty.ObjectVal(map[string]cty.Value{"n": cty.NumberIntVal(4), "mode": cty.StringVal("0600"),
			"idx": num512(t, "17"), "frac": num512(t, "0.1")})}),
		cty.ObjectVal(map[string]cty.Value{"name": cty.StringVal("n2"), "vars": cty.ObjectVal(map[string]cty.Value{"n": cty.NumberIntVal(7), "mode": cty.NullVal(cty.String),
			"idx": num512(t, "-0"), "frac": num512(t, "1e30")})}),
	}
	for i, src := range bodies {
		f, diags := hclsyntax.ParseConfig([]byte(src), fmt.Sprintf("b%d.hcl", i), hcl.InitialPos)
		if diags.HasErrors() {
			t.Fatal(diags)
		}
		sa := newSplitArgs(f.Body, spec)
		if sa == nil {
			t.Fatal("newSplitArgs refused an object of attribute specs")
		}
		if len(sa.hostSpec) == 0 || len(sa.constSpec) == 0 {
			t.Fatalf("body %d: split into %d per-host and %d shared keys, want both sides", i, len(sa.hostSpec), len(sa.constSpec))
		}
		for _, h := range hosts {
			hctx := shared.NewChild()
			hctx.Variables = map[string]cty.Value{"host": h,
				"step": cty.ObjectVal(map[string]cty.Value{"a": cty.UnknownVal(cty.Object(map[string]cty.Type{"stdout": cty.String}))})}
			want, wd := hcldec.Decode(f.Body, spec, hctx)
			got, gd, known := sa.decode(shared, hctx)
			if !got.RawEquals(want) {
				t.Errorf("body %d on %s: %#v, hcldec %#v", i, h.GetAttr("name").AsString(), got, want)
			}
			if known != want.IsWhollyKnown() {
				t.Errorf("body %d on %s: known %v, IsWhollyKnown %v", i, h.GetAttr("name").AsString(), known, want.IsWhollyKnown())
			}
			if d := cmp.Diff(diagLines(wd), diagLines(gd)); d != "" {
				t.Errorf("body %d on %s: diagnostics (-hcldec +split):\n%s", i, h.GetAttr("name").AsString(), d)
			}
		}
	}
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
		if newSplitArgs(f.Body, spec) != nil {
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
