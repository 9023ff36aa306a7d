package assert

import (
	"bytes"
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hcldec"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/provadev/prova/engine/module"
	"github.com/provadev/prova/internal/testkit/golden"
)

func parse(t *testing.T, src string) *hcl.File {
	t.Helper()
	f, diags := hclsyntax.ParseConfig([]byte(src), "assert.hcl", hcl.InitialPos)
	if diags.HasErrors() {
		t.Fatalf("parse: %s", diags.Error())
	}
	return f
}

func TestFailureDiagnosticShowsValues(t *testing.T) {
	f := parse(t, `condition     = step.bench.lat.lat_avg_us <= var.max_lat_us
error_message = "average latency ${step.bench.lat.lat_avg_us} us exceeds ${var.max_lat_us} us on ${host.name}"
`)
	resp, known, diags := New().EvalBody(f.Body, ectx())
	if !known || diags.HasErrors() {
		t.Fatalf("known = %t, diags = %s", known, diags.Error())
	}
	if !resp.Failed || len(resp.Diagnostics) != 1 {
		t.Fatalf("resp = %+v", resp)
	}
	var buf bytes.Buffer
	w := hcl.NewDiagnosticTextWriter(&buf, map[string]*hcl.File{"assert.hcl": f}, 0, false)
	if err := w.WriteDiagnostics(resp.Diagnostics); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	for _, want := range []string{
		"Error: Assertion failed",
		"on assert.hcl line 1:",
		"   1: condition     = step.bench.lat.lat_avg_us <= var.max_lat_us",
		"with step.bench.lat.lat_avg_us as 7.5,",
		"     var.max_lat_us as 5.",
		"average latency 7.5 us exceeds 5 us on nsd01",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("rendered diagnostic lacks %q:\n%s", want, out)
		}
	}
	golden.Check(t, "testdata/diagnostic.golden", buf.Bytes())
}

func TestUnknownMeansNotKnown(t *testing.T) {
	unknownStep := ectx()
	unknownStep.Variables["step"] = cty.DynamicVal
	for name, src := range map[string]string{
		"condition": "condition = step.bench.lat.lat_avg_us < 5\nerror_message = \"x\"",
		"message":   "condition = true\nerror_message = \"${step.bench.lat.lat_avg_us}\"",
		"measured":  "check {\n condition = true\n error_message = \"x\"\n measured = step.bench.lat.lat_avg_us\n}",
	} {
		t.Run(name, func(t *testing.T) {
			_, known, diags := New().EvalBody(parse(t, src).Body, unknownStep)
			if known || diags.HasErrors() {
				t.Fatalf("known = %t, diags = %v; want unknown without errors", known, diags)
			}
		})
	}
}

func TestBodyErrors(t *testing.T) {
	nullish := ectx()
	nullish.Variables["nothing"] = cty.NullVal(cty.Bool)
	for _, tc := range []struct {
		name, src, summary string
		line               int
	}{
		{"string condition", "error_message = \"x\"\ncondition = \"yes\"", "Invalid condition", 2},
		{"number condition", "condition = var.max_lat_us\nerror_message = \"x\"", "Invalid condition", 1},
		{"null condition", "condition = nothing\nerror_message = \"x\"", "Invalid condition", 1},
		{"missing message", "\ncondition = true", "Missing error_message", 2},
		{"missing condition", "error_message = \"x\"", "Missing condition", 1},
		{"check without condition", "check {\n  error_message = \"x\"\n}", "Missing required argument", 1},
		{"unknown argument", "condition = true\nerror_message = \"x\"\nseverity = \"warn\"", "Unsupported argument", 3},
		{"empty", "", "No assertion", 1},
		{"bad reference", "condition = var.nope\nerror_message = \"x\"", "Unsupported attribute", 1},
		{"computed name", "check {\n  name = var.mode\n  condition = true\n  error_message = \"x\"\n}", "Invalid check name", 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, diags := New().EvalBody(parse(t, tc.src).Body, nullish)
			if !diags.HasErrors() || diags[0].Summary != tc.summary {
				t.Fatalf("diags = %v, want %q", diags, tc.summary)
			}
			if s := diags[0].Subject; s == nil || s.Start.Line != tc.line {
				t.Errorf("subject = %v, want line %d", s, tc.line)
			}
		})
	}
}

func TestSeveralChecks(t *testing.T) {
	src := `
condition     = var.mode == "enable"
error_message = "mode is ${var.mode}"
check {
  name          = "latency"
  measured      = step.bench.lat.lat_avg_us
  threshold     = var.max_lat_us
  condition     = step.bench.lat.lat_avg_us <= var.max_lat_us
  error_message = "latency ${step.bench.lat.lat_avg_us} > ${var.max_lat_us}"
}
check {
  measured      = ["mlx5_0", "mlx5_1"]
  condition     = false
  error_message = "always"
}`
	resp, known, diags := New().EvalBody(parse(t, src).Body, ectx())
	if !known || diags.HasErrors() {
		t.Fatalf("known = %t, diags = %v", known, diags)
	}
	want := []module.Check{
		{Verdict: "pass"},
		{Name: "latency", Measured: "7.5", Threshold: "5", Verdict: "fail", Message: "latency 7.5 > 5"},
		{Name: "check 2", Measured: `["mlx5_0","mlx5_1"]`, Verdict: "fail", Message: "always"},
	}
	if d := cmp.Diff(want, resp.Checks); d != "" {
		t.Errorf("checks (-want +got):\n%s", d)
	}
	if resp.Message != "2 of 3 checks failed: latency 7.5 > 5" || len(resp.Diagnostics) != 2 {
		t.Errorf("message = %q, %d diagnostics", resp.Message, len(resp.Diagnostics))
	}
	if resp.Outputs.GetAttr("passed").True() || resp.Outputs.GetAttr("failures").LengthInt() != 2 {
		t.Errorf("outputs = %#v", resp.Outputs)
	}

	// Apply on decoded arguments reaches the same verdicts.
	args, diags := hcldec.Decode(parse(t, src).Body, New().Spec(), ectx())
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	got, err := New().Apply(context.Background(), module.ApplyRequest{Args: args})
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(want, got.Checks); d != "" || got.Message != resp.Message {
		t.Errorf("Apply checks (-want +got):\n%s\nmessage %q", d, got.Message)
	}
}

func TestSensitiveValuesHidden(t *testing.T) {
	ctx := ectx()
	ctx.Variables["secret"] = cty.StringVal("hunter2").Mark("sensitive")
	src := "check {\n  measured = secret\n  condition = secret == \"other\"\n  error_message = \"secret is ${secret}\"\n}"
	resp, known, diags := New().EvalBody(parse(t, src).Body, ctx)
	if !known || diags.HasErrors() {
		t.Fatalf("known = %t, diags = %v", known, diags)
	}
	for _, s := range []string{resp.Message, resp.Checks[0].Measured, resp.Checks[0].Message} {
		if strings.Contains(s, "hunter2") {
			t.Fatalf("sensitive value shown: %+v", resp)
		}
	}
	if !resp.Failed {
		t.Fatal("a false condition on a sensitive value did not fail")
	}
}

func TestRender(t *testing.T) {
	for _, tc := range []struct {
		v    cty.Value
		want string
	}{
		{cty.NumberFloatVal(2.35), "2.35"},
		{cty.NumberIntVal(1000000), "1000000"},
		{cty.True, "true"},
		{cty.StringVal("mlx5_0"), "mlx5_0"},
		{cty.NullVal(cty.String), "null"},
		{cty.ObjectVal(map[string]cty.Value{"a": cty.NumberIntVal(1)}), `{"a":1}`},
		{cty.StringVal(strings.Repeat("é", 60)), strings.Repeat("é", 40) + "..."},
	} {
		if got := render(tc.v); got != tc.want {
			t.Errorf("render(%#v) = %q, want %q", tc.v, got, tc.want)
		}
	}
}

func TestSchemaMatchesSpec(t *testing.T) {
	names := func(s *hcl.BodySchema) []string {
		var n []string
		for _, a := range s.Attributes {
			n = append(n, "attr "+a.Name)
		}
		for _, b := range s.Blocks {
			n = append(n, "block "+b.Type)
		}
		slices.Sort(n)
		return n
	}
	if d := cmp.Diff(names(hcldec.ImpliedSchema(New().Spec())), names(rootSchema())); d != "" {
		t.Errorf("rootSchema differs from Spec (-spec +schema):\n%s", d)
	}
	nested := New().Spec().(*hcldec.ObjectSpec)
	checkSpec := (*nested)["check"].(*hcldec.BlockTupleSpec).Nested
	if d := cmp.Diff(names(hcldec.ImpliedSchema(checkSpec)), names(checkSchema())); d != "" {
		t.Errorf("checkSchema differs from Spec (-spec +schema):\n%s", d)
	}
}

func TestValidate(t *testing.T) {
	for src, want := range map[string]string{
		"condition = true":      "Missing error_message",
		"error_message = \"x\"": "Missing condition",
		"":                      "No assertion",
		"condition = true\nerror_message = \"x\"":               "",
		"check {\n condition = true\n error_message = \"x\"\n}": "",
	} {
		args, diags := hcldec.Decode(parse(t, src).Body, New().Spec(), nil)
		if diags.HasErrors() {
			t.Fatalf("%q: %s", src, diags.Error())
		}
		diags = New().Validate(args)
		got := ""
		if len(diags) > 0 {
			got = diags[0].Summary
		}
		if got != want {
			t.Errorf("Validate(%q) = %q, want %q", src, got, want)
		}
	}
}
