package eval

import (
	"strings"
	"testing"

	"github.com/zclconf/go-cty/cty"
)

// Locals are evaluated in dependency order, whatever their order in the
// file, and see var, group and inventory.
func TestLocalsDependencyOrder(t *testing.T) {
	rb := parseRunbook(t, `
variable "pool" {
  type    = string
  default = "4G"
}
locals {
  summary = "${local.prefix}: ${local.pool} on ${local.count} hosts"
  prefix  = upper(local.name)
}
locals {
  name  = "gpfs"
  pool  = var.pool
  count = length(inventory.hosts)
  nsd   = group.nsd
}
`)
	vars, diags := ResolveVariables(rb, Inputs{})
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	s := NewScope(vars.Values, []HostInfo{{Name: "gpfs01"}, {Name: "gpfs02"}}, map[string][]string{"nsd": {"gpfs01"}}, ".", nil)
	locals, diags := EvalLocals(rb, s.Base())
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	if got := locals["summary"]; !got.RawEquals(cty.StringVal("GPFS: 4G on 2 hosts")) {
		t.Errorf("local.summary = %#v", got)
	}
	if got := locals["nsd"]; !got.RawEquals(cty.ListVal([]cty.Value{cty.StringVal("gpfs01")})) {
		t.Errorf("local.nsd = %#v", got)
	}
}

// A cycle between locals is an error naming the chain; the locals outside
// the cycle still get their values.
func TestLocalsCycle(t *testing.T) {
	rb := parseRunbook(t, `
locals {
  a  = local.b
  b  = local.c
  c  = "${local.a}x"
  ok = "fine"
}
`)
	s := NewScope(nil, nil, nil, ".", nil)
	locals, diags := EvalLocals(rb, s.Base())
	if !diags.HasErrors() {
		t.Fatal("a cycle between locals is not an error")
	}
	var found bool
	for _, d := range diags {
		if d.Summary == "Reference cycle between locals" {
			found = true
			if !strings.Contains(d.Detail, "local.a -> local.b -> local.c -> local.a") {
				t.Errorf("cycle detail %q does not name the chain", d.Detail)
			}
			if d.Subject == nil || d.Subject.Filename != "rb.hcl" {
				t.Errorf("cycle diagnostic has no source range: %+v", d.Subject)
			}
		}
	}
	if !found {
		t.Errorf("no cycle diagnostic in: %s", diags.Error())
	}
	if got := locals["ok"]; !got.RawEquals(cty.StringVal("fine")) {
		t.Errorf("local.ok = %#v, want it evaluated despite the cycle", got)
	}
}

// A reference to an undeclared local is an error that suggests the
// nearest name.
func TestLocalsUndeclared(t *testing.T) {
	rb := parseRunbook(t, `
locals {
  pagepool = "4G"
  x        = local.pagepol
}
`)
	_, diags := EvalLocals(rb, NewScope(nil, nil, nil, ".", nil).Base())
	if !hasDiag(diags, "Reference to undeclared local value", `Did you mean "pagepool"?`) {
		t.Errorf("undeclared local: %s", diags.Error())
	}
}

// Without an inventory (validate), locals that index the inventory are
// unknown rather than errors.
func TestLocalsStaticBaseUnknown(t *testing.T) {
	rb := parseRunbook(t, `
locals {
  n     = length(inventory.hosts)
  first = group.nsd[0]
}
`)
	locals, diags := EvalLocals(rb, NewScope(nil, nil, nil, ".", nil).StaticBase())
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	for _, name := range []string{"n", "first"} {
		if locals[name].IsKnown() {
			t.Errorf("local.%s = %#v, want unknown without an inventory", name, locals[name])
		}
	}
}
