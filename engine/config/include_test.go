package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
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

func TestIncludeForEach(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "lib/one.hcl", `
step "shell" "connect" {
  command = "connect ${each.value}"
}
step "shell" "bench" {
  depends_on = [step.connect]
  command    = "bench ${step.connect.stdout} ${per_host.connect["n1"].rc}"
}
step "shell" "outside" {
  command = "${step.first.stdout}"
}
`)
	main := write(t, dir, "main.hcl", `
step "shell" "first" {
  command = "1"
}
include "transport" {
  source   = "lib/one.hcl"
  for_each = ["tcp", "rdma"]
}
step "shell" "compare" {
  command = "${step.bench_rdma.stdout} ${step.bench_tcp.stdout}"
}`)
	rb, diags := Load(main)
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	var names []string
	for _, s := range rb.Steps {
		names = append(names, s.Name)
	}
	if got := strings.Join(names, ","); got != "first,connect_tcp,bench_tcp,outside_tcp,connect_rdma,bench_rdma,outside_rdma,compare" {
		t.Fatalf("steps = %s", got)
	}
	bench := rb.Steps[5]
	if got := bench.DependsOnNames(); len(got) != 1 || got[0] != "connect_rdma" {
		t.Errorf("depends_on = %v", got)
	}
	attrs, _ := bench.Body.JustAttributes()
	var refs []string
	for _, tr := range attrs["command"].Expr.Variables() {
		refs = append(refs, tr.RootName()+"."+tr[1].(hcl.TraverseAttr).Name)
	}
	if got := strings.Join(refs, ","); got != "step.connect_rdma,per_host.connect_rdma" {
		t.Errorf("bench_rdma refers to %s", got)
	}
	outside, _ := rb.Steps[3].Body.JustAttributes()
	if tr := outside["command"].Expr.Variables()[0]; tr[1].(hcl.TraverseAttr).Name != "first" {
		t.Error("a reference to a step outside the include must not be renamed")
	}
	if ev := rb.Steps[1].Each; ev.GetAttr("key").AsString() != "tcp" || ev.GetAttr("value").AsString() != "tcp" {
		t.Errorf("each = %#v", ev)
	}
}

func TestIncludeForEachErrors(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "lib.hcl", `step "shell" "x" { command = "y" }`)
	for body, want := range map[string]string{
		`for_each = var.transports`: "Invalid for_each",
		`for_each = ["a", "a"]`:     "appears twice",
		`for_each = ["has space"]`:  "cannot be part of a step name",
		`for_each = 3`:              "list of names or a map",
	} {
		p := write(t, dir, "main.hcl", "include \"x\" {\n  source = \"lib.hcl\"\n  "+body+"\n}\n")
		_, diags := Load(p)
		found := false
		for _, d := range diags {
			if strings.Contains(d.Summary+" "+d.Detail, want) && d.Subject != nil {
				found = true
			}
		}
		if !found {
			t.Errorf("%s: want %q with a range, got %v", body, want, diags)
		}
	}
}
