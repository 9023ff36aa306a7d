package eval

import (
	"testing"

	"github.com/zclconf/go-cty/cty"
)

// FlagText writes values that ResolveVariables reads back unchanged.
func TestFlagTextRoundTrip(t *testing.T) {
	rb := parseRunbook(t, `
variable "s" { type = string }
variable "n" { type = number }
variable "b" { type = bool }
variable "l" { type = list(string) }
variable "m" { type = map(number) }
variable "o" { type = object({ name = string, ports = list(string) }) }
variable "a" { type = any }
`)
	values := map[string]cty.Value{
		"s": cty.StringVal(`4G "quoted" ${not.interpolated} = x`),
		"n": cty.NumberFloatVal(0.25),
		"b": cty.False,
		"l": cty.ListVal([]cty.Value{cty.StringVal("mlx5_0/1"), cty.StringVal(`we"ird`)}),
		"m": cty.MapVal(map[string]cty.Value{"a": cty.NumberIntVal(1)}),
		"o": cty.ObjectVal(map[string]cty.Value{"name": cty.StringVal("x"), "ports": cty.ListValEmpty(cty.String)}),
		"a": cty.StringVal("plain text"),
	}
	var flags []string
	for _, v := range rb.Variables {
		text, err := FlagText(v, values[v.Name])
		if err != nil {
			t.Fatal(err)
		}
		flags = append(flags, v.Name+"="+text)
	}
	vars, diags := ResolveVariables(rb, Inputs{Flags: flags})
	if diags.HasErrors() {
		t.Fatalf("%v: %s", flags, diags.Error())
	}
	for name, want := range values {
		if got := vars.Values[name]; !got.Equals(want).True() {
			t.Errorf("var.%s: %#v read back as %#v (flags %q)", name, want, got, flags)
		}
	}
}
