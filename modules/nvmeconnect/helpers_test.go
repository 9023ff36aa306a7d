package nvmeconnect

import (
	"context"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hcldec"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/provadev/prova/engine/module"
	"github.com/provadev/prova/modules/internal/nvmecmd/nvmefake"
)

const (
	nqn  = "nqn.2024-01.dev.wutz:target1"
	addr = "10.68.20.10"
)

func target(transports ...string) nvmefake.Target {
	return nvmefake.Target{NQN: nqn, Address: addr, Port: 4420, Transports: transports}
}

func decode(t *testing.T, m module.Module, body string) hcl.Body {
	t.Helper()
	f, diags := hclsyntax.ParseConfig([]byte(body), "t.hcl", hcl.InitialPos)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	return f.Body
}

func run(t *testing.T, m module.Module, h module.Host, body string) (module.PlanResponse, module.ApplyResponse) {
	t.Helper()
	args, diags := hcldec.Decode(decode(t, m, body), m.Spec(), nil)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	plan := planOf(t, m, h, args)
	resp, err := m.Apply(context.Background(), module.ApplyRequest{Host: h, Args: args})
	if err != nil {
		t.Fatalf("apply: %v", err)
	}
	return plan, resp
}

func strs(t *testing.T, resp module.ApplyResponse, name string) []string {
	t.Helper()
	var out []string
	for _, v := range resp.Outputs.GetAttr(name).AsValueSlice() {
		out = append(out, v.AsString())
	}
	return out
}

// section returns the lines of a combined sample after the first line
// containing start, up to the next prompt or blank-then-prompt line.
func section(b []byte, start string) string {
	var out []string
	in := false
	for _, l := range strings.Split(string(b), "\n") {
		switch {
		case !in && strings.Contains(l, start):
			in = true
		case in && (strings.HasPrefix(l, "$ ") || strings.HasPrefix(l, "[root@") || strings.HasPrefix(l, "# ")):
			return strings.Join(out, "\n") + "\n"
		case in:
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

func planOnly(t *testing.T, m module.Module, h module.Host, body string) module.PlanResponse {
	t.Helper()
	args, diags := hcldec.Decode(decode(t, m, body), m.Spec(), nil)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	return planOf(t, m, h, args)
}

// planOf is the module's own plan, or the engine's for a read-only module.
func planOf(t *testing.T, m module.Module, h module.Host, args cty.Value) module.PlanResponse {
	t.Helper()
	p, ok := m.(module.Planner)
	if !ok {
		return module.PlanResponse{Action: module.NoOp, Summary: module.Describe(m, args)}
	}
	plan, err := p.Plan(context.Background(), module.PlanRequest{Host: h, Args: args})
	if err != nil {
		t.Fatalf("plan: %v", err)
	}
	return plan
}

func decodeArgs(t *testing.T, m module.Module, body string) cty.Value {
	t.Helper()
	args, diags := hcldec.Decode(decode(t, m, body), m.Spec(), nil)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	return args
}
