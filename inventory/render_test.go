package inventory

import (
	"bytes"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"
)

// TestRenderRoundTrip checks that Render writes valid HCL that loads back
// into an inventory that renders the same.
func TestRenderRoundTrip(t *testing.T) {
	for _, path := range fixtures(t, "valid") {
		t.Run(path, func(t *testing.T) {
			roundTrip(t, mustLoad(t, path))
		})
	}
}

func roundTrip(t *testing.T, inv *Inventory) {
	t.Helper()
	var first bytes.Buffer
	if err := inv.Render(&first); err != nil {
		t.Fatal(err)
	}
	again, diags := Parse("rendered.hcl", first.Bytes())
	if diags.HasErrors() {
		t.Fatalf("rendered inventory does not load: %s\n%s", diags.Error(), first.Bytes())
	}
	var second bytes.Buffer
	if err := again.Render(&second); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(first.String(), second.String()); diff != "" {
		t.Errorf("render is not a fixed point (-first +second):\n%s", diff)
	}
}

func TestRenderValues(t *testing.T) {
	inv := &Inventory{Hosts: []*Host{{
		Name:    "n1",
		Address: "n1",
		Vars: map[string]cty.Value{
			"tmpl":    cty.StringVal("${not} %{a} \"q\" \\ \n\t\x01"),
			"a-b":     cty.True,
			"odd key": cty.NumberIntVal(1),
			"null":    cty.NullVal(cty.DynamicPseudoType),
			"list":    cty.TupleVal([]cty.Value{cty.ObjectVal(map[string]cty.Value{"x": cty.NumberIntVal(1)})}),
			"empty":   cty.EmptyObjectVal,
		},
	}}}
	var buf bytes.Buffer
	if err := inv.Render(&buf); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	for _, want := range []string{
		`"$${not} %%{a} \"q\" \\ \n\t\u0001"`,
		`"odd key" = 1`,
		"list = [\n      {\n        x = 1\n      },\n    ]",
		`empty = {}`,
		`null      = null`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("render lacks %q:\n%s", want, out)
		}
	}
	again := mustParse(t, "r.hcl", out)
	if got := host(t, again, "n1").Vars["tmpl"]; !got.RawEquals(inv.Hosts[0].Vars["tmpl"]) {
		t.Errorf("string did not survive the round trip: %#v", got)
	}
}

func TestRenderNumbers(t *testing.T) {
	inv := mustParse(t, "n.yml", "all:\n  vars: {a: 0.1, b: 1.0e+300, c: -7, d: 12345678901234567890, e: 3.0, f: 1e300}\n  hosts: {h: }\n")
	var buf bytes.Buffer
	if err := inv.Render(&buf); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"a = 0.1\n", "b = 1e+300\n", "c = -7\n", "d = 12345678901234567890\n", "e = 3\n", "f = \"1e300\"\n"} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("render lacks %q:\n%s", want, buf.String())
		}
	}
	roundTrip(t, inv)
}
