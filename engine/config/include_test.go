package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zclconf/go-cty/cty"
)

func write(t *testing.T, dir, name, body string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestIncludePlacesStepsAndMergesVariables(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "lib/checks.hcl", `
variable "ports" {
  type = list(string)
}
step "shell" "check_a" {
  command = "a"
}
step "shell" "check_b" {
  when    = host.name != "x"
  command = "b"
}`)
	main := write(t, dir, "main.hcl", `
variable "ports" {
  type    = list(string)
  default = ["mlx5_0/1"]
}
variable "run_checks" {
  type    = bool
  default = true
}
step "shell" "first" {
  command = "1"
}
include "checks" {
  source = "lib/checks.hcl"
  when   = var.run_checks
}
step "shell" "last" {
  command = "2"
}`)
	rb, diags := Load(main)
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	var names []string
	for _, s := range rb.Steps {
		names = append(names, s.Name)
	}
	if got := strings.Join(names, ","); got != "first,check_a,check_b,last" {
		t.Fatalf("step order = %s", got)
	}
	if len(rb.Variables) != 2 || rb.Variables[0].Default.Equals(cty.ListVal([]cty.Value{cty.StringVal("mlx5_0/1")})).False() {
		t.Fatalf("variables not merged: %+v", rb.Variables)
	}
	if rb.Steps[1].When == nil || rb.Steps[1].Included != "checks" {
		t.Fatal("included step lacks the include's when")
	}
	// The combined condition: include's when AND the step's own.
	ctx := evalCtx(map[string]cty.Value{
		"var":  cty.ObjectVal(map[string]cty.Value{"run_checks": cty.False}),
		"host": cty.ObjectVal(map[string]cty.Value{"name": cty.StringVal("n1")}),
	})
	v, d := rb.Steps[2].When.Value(ctx)
	if d.HasErrors() || v.True() {
		t.Fatalf("when = %v (%s); include's when=false must win", v, d.Error())
	}
	if len(rb.Sources) != 2 {
		t.Errorf("sources of both files should be kept for diagnostics, got %d", len(rb.Sources))
	}
}

func TestIncludeErrors(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "a.hcl", `include "b" { source = "b.hcl" }`)
	write(t, dir, "b.hcl", `include "a" { source = "a.hcl" }`)
	_, diags := Load(filepath.Join(dir, "a.hcl"))
	if !diags.HasErrors() || !strings.Contains(diags.Error(), "Include cycle") {
		t.Fatalf("want an include cycle, got %v", diags)
	}
	write(t, dir, "c.hcl", `include "x" { source = "missing.hcl" }`)
	_, diags = Load(filepath.Join(dir, "c.hcl"))
	if !diags.HasErrors() || !strings.Contains(diags.Error(), "Cannot read included file") || diags[0].Subject == nil {
		t.Fatalf("want a located read error, got %v", diags)
	}
	write(t, dir, "d.hcl", "variable \"v\" {\n  type = string\n}\ninclude \"e\" {\n  source = \"e.hcl\"\n}\n")
	write(t, dir, "e.hcl", "variable \"v\" {\n  type = number\n}\n")
	_, diags = Load(filepath.Join(dir, "d.hcl"))
	if !diags.HasErrors() || !strings.Contains(diags.Error(), "Conflicting variable declarations") {
		t.Fatalf("want conflicting variables, got %v", diags)
	}
}
