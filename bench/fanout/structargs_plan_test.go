package benchfanout_test

import (
	"cmp"
	"context"
	"slices"
	"testing"

	gocmp "github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hcldec"
	"github.com/zclconf/go-cty/cty"

	"github.com/provadev/prova/engine/apply"
	"github.com/provadev/prova/engine/event"
	"github.com/provadev/prova/engine/module"
	"github.com/provadev/prova/modules/all"
	"github.com/provadev/prova/modules/shell"
)

// objectShell is the shell module without its module.StructArgs
// declaration: the engine plans it through the arguments' cty object, as
// it plans every module that does not declare it.
type objectShell struct{ s *shell.Shell }

func (o objectShell) ID() string                           { return o.s.ID() }
func (o objectShell) Spec() hcldec.Spec                    { return o.s.Spec() }
func (o objectShell) Outputs() cty.Type                    { return o.s.Outputs() }
func (o objectShell) Validate(v cty.Value) hcl.Diagnostics { return o.s.Validate(v) }
func (o objectShell) NewArgs() any                         { return o.s.NewArgs() }
func (o objectShell) Plan(ctx context.Context, req module.PlanRequest) (module.PlanResponse, error) {
	return o.s.Plan(ctx, req)
}
func (o objectShell) Apply(ctx context.Context, req module.ApplyRequest) (module.ApplyResponse, error) {
	return o.s.Apply(ctx, req)
}

// The plan of the scale runbook is the same, host-step by host-step,
// whether the shell module's per-host arguments are decoded into its
// struct alone (module.StructArgs) or through their cty object: what the
// console prints and a saved plan holds cannot tell the two apart.
func TestStructArgsPlanMatchesObjectPlan(t *testing.T) {
	rbPath, invPath := writeScale(t, 25, 120)
	rb := mustLoad(t, rbPath)
	inv := mustInventory(t, invPath)
	reg, objReg := structArgsRegistries(t)
	plan := func(reg *module.Registry) []event.PlannedHost {
		prog := mustBind(t, rb, reg)
		out := run(t, prog, mustScope(t, rb, prog, inv), inv, apply.ModePlan)
		ps := slices.Clone(out.Planned)
		slices.SortFunc(ps, func(a, b event.PlannedHost) int {
			return cmp.Or(cmp.Compare(a.Step, b.Step), cmp.Compare(a.Host, b.Host))
		})
		return ps
	}
	want, got := plan(objReg), plan(reg)
	if len(want) < 1000 {
		t.Fatalf("the plan has %d host-steps", len(want))
	}
	if d := gocmp.Diff(want, got); d != "" {
		t.Errorf("the plan through the struct differs from the plan through the object (-object +struct):\n%s", d)
	}
}

func mustLookup(t *testing.T, reg *module.Registry, id string) module.Module {
	t.Helper()
	m, ok := reg.Lookup(id)
	if !ok {
		t.Fatalf("no module %q", id)
	}
	return m
}

// structArgsRegistries returns every module (the shell declaring
// module.StructArgs) and the same registry with the shell behind
// objectShell, which hides the declaration: the engine then decodes the
// shell's per-host arguments through their cty object.
func structArgsRegistries(t *testing.T) (reg, objReg *module.Registry) {
	t.Helper()
	reg = all.Registry()
	if _, ok := mustLookup(t, reg, "shell").(module.StructArgs); !ok {
		t.Fatal("the shell module does not declare module.StructArgs: this test would compare the object's path with itself")
	}
	objReg = module.NewRegistry()
	for _, id := range reg.IDs() {
		m := mustLookup(t, reg, id)
		if id == "shell" {
			m = objectShell{shell.New()}
		}
		objReg.Register(m)
	}
	return reg, objReg
}
