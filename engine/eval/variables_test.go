package eval

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/provadev/prova/engine/config"
)

func parseRunbook(t *testing.T, src string) *config.Runbook {
	t.Helper()
	rb, diags := config.Parse(map[string][]byte{"rb.hcl": []byte(src)})
	if diags.HasErrors() {
		t.Fatalf("parse: %s", diags.Error())
	}
	return rb
}

func writeVarFile(t *testing.T, src string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "vars.hcl")
	if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

const precedenceRunbook = `
variable "a" {
  type    = string
  default = "default"
}
variable "b" {
  type    = string
  default = "default"
}
variable "c" {
  type    = string
  default = "default"
}
variable "d" {
  type    = string
  default = "default"
}
`

// Each source overrides the ones before it: default < PROVA_VAR_ <
// --var-file < --var, and a later --var beats an earlier one.
func TestVariablePrecedence(t *testing.T) {
	rb := parseRunbook(t, precedenceRunbook)
	t.Setenv("PROVA_VAR_b", "env")
	t.Setenv("PROVA_VAR_c", "env")
	t.Setenv("PROVA_VAR_d", "env")
	file := writeVarFile(t, "c = \"file\"\nd = \"file\"\n")
	vars, diags := ResolveVariables(rb, Inputs{
		Env:   os.Environ(),
		Files: []string{file},
		Flags: []string{"d=first flag", "d=flag"},
	})
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	want := map[string]string{"a": "default", "b": "env", "c": "file", "d": "flag"}
	for name, w := range want {
		if got := vars.Values[name]; !got.RawEquals(cty.StringVal(w)) {
			t.Errorf("var.%s = %#v, want %q", name, got, w)
		}
	}
}

// Environment variables without the prefix, or for undeclared variables,
// are ignored (as Terraform does); an undeclared --var is an error naming
// the nearest declared one.
func TestVariableSourcesUndeclared(t *testing.T) {
	rb := parseRunbook(t, precedenceRunbook)
	vars, diags := ResolveVariables(rb, Inputs{Env: []string{"PROVA_VAR_nosuch=x", "a=not prefixed", "PROVA_VAR_a"}})
	if diags.HasErrors() {
		t.Fatalf("env values must not be errors: %s", diags.Error())
	}
	if !vars.Values["a"].RawEquals(cty.StringVal("default")) {
		t.Errorf("var.a = %#v, want the default", vars.Values["a"])
	}
	_, diags = ResolveVariables(rb, Inputs{Flags: []string{"aa=x"}})
	if !hasDiag(diags, "Value for undeclared variable", `Did you mean "a"?`) {
		t.Errorf("undeclared --var: %s", diags.Error())
	}
	_, diags = ResolveVariables(rb, Inputs{Flags: []string{"novalue"}})
	if !hasDiag(diags, "Invalid --var option", "name=value") {
		t.Errorf("--var without =: %s", diags.Error())
	}
	_, diags = ResolveVariables(rb, Inputs{Files: []string{writeVarFile(t, "zz = 1\n")}})
	if !hasDiag(diags, "Value for undeclared variable", "var.zz") {
		t.Errorf("undeclared in a var file: %s", diags.Error())
	}
}

// Collections given as text are HCL; primitives are literal; numbers and
// bools convert from text.
func TestVariableTypes(t *testing.T) {
	rb := parseRunbook(t, `
variable "ports" { type = list(string) }
variable "n" {
  type    = number
  default = 1
}
variable "flag" {
  type    = bool
  default = false
}
variable "text" {
  type    = string
  default = ""
}
`)
	vars, diags := ResolveVariables(rb, Inputs{
		Env:   []string{"PROVA_VAR_n=32"},
		Flags: []string{`ports=["mlx5_0/1", "mlx5_1/1"]`, "flag=true", "text=[not, a, list]"},
	})
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	if got := vars.Values["ports"]; !got.RawEquals(cty.ListVal([]cty.Value{cty.StringVal("mlx5_0/1"), cty.StringVal("mlx5_1/1")})) {
		t.Errorf("ports = %#v", got)
	}
	if got := vars.Values["n"]; !got.RawEquals(cty.NumberIntVal(32)) {
		t.Errorf("n = %#v", got)
	}
	if got := vars.Values["flag"]; !got.RawEquals(cty.True) {
		t.Errorf("flag = %#v", got)
	}
	if got := vars.Values["text"]; !got.RawEquals(cty.StringVal("[not, a, list]")) {
		t.Errorf("text = %#v", got)
	}
}

// A value that does not fit the type names the type and shows how to write
// one where it was given, and the variable is not also said to have no
// value.
func TestVariableWrongTypeShowsExample(t *testing.T) {
	rb := parseRunbook(t, `
variable "verbs_ports" { type = list(string) }
variable "n" {
  type    = number
  default = 1
}
variable "m" {
  type    = map(string)
  default = {}
}
`)
	for _, c := range []struct {
		in   Inputs
		want string
	}{
		{Inputs{Flags: []string{"verbs_ports=mlx5_0/1"}}, `verbs_ports is list(string): --var 'verbs_ports=["mlx5_0/1"]'`},
		{Inputs{Flags: []string{"verbs_ports=a,b"}}, `verbs_ports is list(string): --var 'verbs_ports=["a", "b"]'`},
		{Inputs{Env: []string{"PROVA_VAR_verbs_ports=mlx5_0/1"}}, `verbs_ports is list(string): PROVA_VAR_verbs_ports='["mlx5_0/1"]'`},
		{Inputs{Flags: []string{"verbs_ports=[\"x\"]", "n=lots"}}, `n is number: --var 'n=8'`},
		{Inputs{Flags: []string{"verbs_ports=[\"x\"]", "m=oops"}}, `m is map(string): --var 'm={ key = "value" }'`},
		{Inputs{Files: []string{writeVarFile(t, "verbs_ports = \"mlx5_0/1\"\n")}}, `verbs_ports is list(string): verbs_ports = ["mlx5_0/1"] (in the --var-file)`},
	} {
		_, diags := ResolveVariables(rb, c.in)
		if !hasDiag(diags, "Invalid value for variable", c.want) {
			t.Errorf("%+v: want a diagnostic with %q, got:\n%s", c.in, c.want, diags.Error())
		}
		if hasDiag(diags, "No value for required variable", "") {
			t.Errorf("%+v: also says the variable has no value:\n%s", c.in, diags.Error())
		}
	}
	// Given nowhere: that, and only that.
	_, diags := ResolveVariables(rb, Inputs{})
	if !hasDiag(diags, "No value for required variable", "PROVA_VAR_verbs_ports") || len(diags) != 1 {
		t.Errorf("no value given: %s", diags.Error())
	}
}

// Validation rules run on the final value and print their error message
// with interpolated values; a rule that is not a bool is an error of its
// own.
func TestVariableValidation(t *testing.T) {
	rb := parseRunbook(t, `
variable "mode" {
  type    = string
  default = "rolling"
  validation {
    condition     = contains(["rolling", "cluster"], var.mode)
    error_message = "restart_mode is rolling or cluster, not ${var.mode}."
  }
}
variable "weird" {
  type    = number
  default = 1
  validation {
    condition     = "yes"
    error_message = "never shown"
  }
}
`)
	_, diags := ResolveVariables(rb, Inputs{Flags: []string{"mode=all-at-once", "weird=2"}})
	if !hasDiag(diags, "Invalid value for variable", "restart_mode is rolling or cluster, not all-at-once.") {
		t.Errorf("validation message: %s", diags.Error())
	}
	if !hasDiag(diags, "Invalid validation condition", "true or false") {
		t.Errorf("non-bool condition: %s", diags.Error())
	}
	_, diags = ResolveVariables(rb, Inputs{Flags: []string{"mode=cluster"}})
	if hasDiag(diags, "Invalid value for variable", "") {
		t.Errorf("valid value refused: %s", diags.Error())
	}
}

// validate (Partial) sees every variable not given as unknown, default or
// not, so validation rules are not judged on a value the run may not use.
func TestVariablesPartialAreUnknown(t *testing.T) {
	rb := parseRunbook(t, `
variable "ports" { type = list(string) }
variable "n" {
  default = 4
  validation {
    condition     = var.n > 2
    error_message = "n > 2"
  }
}
`)
	vars, diags := ResolveVariables(rb, Inputs{Partial: true})
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	if v := vars.Values["ports"]; v.IsKnown() || !v.Type().Equals(cty.List(cty.String)) {
		t.Errorf("ports = %#v, want an unknown list(string)", v)
	}
	if v := vars.Values["n"]; v.IsKnown() || !v.Type().Equals(cty.Number) {
		t.Errorf("n = %#v, want an unknown number (the default's type)", v)
	}
	vars, _ = ResolveVariables(rb, Inputs{Partial: true, Flags: []string{"n=7"}})
	if v := vars.Values["n"]; !v.RawEquals(cty.NumberIntVal(7)) {
		t.Errorf("a given value stays known in partial mode: %#v", v)
	}
}

// Every string inside a sensitive variable's value is collected for
// redaction, whatever source it came from.
func TestSensitiveStrings(t *testing.T) {
	rb := parseRunbook(t, `
variable "token" {
  type      = string
  sensitive = true
}
variable "creds" {
  type      = map(string)
  sensitive = true
  default   = { user = "admin", pass = "hunter2-long-secret" }
}
variable "plain" {
  type    = string
  default = "visible"
}
`)
	vars, diags := ResolveVariables(rb, Inputs{Env: []string{"PROVA_VAR_token=s3cr3t-from-env"}})
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	got := strings.Join(vars.Sensitive, "|")
	for _, want := range []string{"s3cr3t-from-env", "admin", "hunter2-long-secret"} {
		if !strings.Contains(got, want) {
			t.Errorf("Sensitive %q lacks %q", got, want)
		}
	}
	if strings.Contains(got, "visible") {
		t.Errorf("Sensitive %q holds a value that is not sensitive", got)
	}
}

func hasDiag(diags hcl.Diagnostics, summary, detail string) bool {
	for _, d := range diags {
		if d.Summary == summary && strings.Contains(d.Detail, detail) {
			return true
		}
	}
	return false
}
