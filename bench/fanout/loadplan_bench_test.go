package benchfanout_test

import (
	"context"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/provadev/prova/bench/fanout"
	"github.com/provadev/prova/engine/apply"
	"github.com/provadev/prova/engine/config"
	"github.com/provadev/prova/engine/eval"
	"github.com/provadev/prova/engine/module"
	"github.com/provadev/prova/engine/program"
	"github.com/provadev/prova/inventory"
	"github.com/provadev/prova/modules/all"
)

// The engine at scale, without network: a 100-step runbook over a
// 2,000-host HCL inventory, through the same calls as prova plan and
// apply (internal/cli load.go and execute.go), with fake hosts that answer
// every command at once. The benchmark lives here rather than in
// engine/plan because it binds the real modules (modules/all), which
// engine packages must not import.
const (
	scaleSteps = 100
	scaleHosts = 2000
)

func BenchmarkLoadPlan2000(b *testing.B) {
	rbPath, invPath := writeScale(b, scaleSteps, scaleHosts)
	reg := all.Registry()
	rb := mustLoad(b, rbPath)
	prog := mustBind(b, rb, reg)
	inv := mustInventory(b, invPath)
	scope := mustScope(b, rb, prog, inv)

	b.Run("load_runbook", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			mustLoad(b, rbPath)
		}
	})
	b.Run("bind", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			mustBind(b, rb, reg)
		}
	})
	b.Run("load_inventory", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			mustInventory(b, invPath)
		}
	})
	b.Run("variables_scope_locals", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			mustScope(b, rb, prog, inv)
		}
	})
	b.Run("plan_run", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			run(b, prog, scope, inv, apply.ModePlan)
		}
	})
	b.Run("validate_to_plan", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			rb := mustLoad(b, rbPath)
			prog := mustBind(b, rb, reg)
			inv := mustInventory(b, invPath)
			run(b, prog, mustScope(b, rb, prog, inv), inv, apply.ModePlan)
		}
	})
}

// BenchmarkApplyScale runs apply (fake hosts, every command exits 0) of the
// 100-step runbook at 250, 500 and 1,000 hosts, to show how the per-host
// evaluation scope grows with the number of hosts.
func BenchmarkApplyScale(b *testing.B) {
	reg := all.Registry()
	for _, n := range []int{250, 500, 1000} {
		rbPath, invPath := writeScale(b, scaleSteps, n)
		rb := mustLoad(b, rbPath)
		prog := mustBind(b, rb, reg)
		inv := mustInventory(b, invPath)
		scope := mustScope(b, rb, prog, inv)
		b.Run("hosts="+strconv.Itoa(n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				run(b, prog, scope, inv, apply.ModeApply)
			}
		})
	}
}

func writeScale(tb testing.TB, steps, hosts int) (string, string) {
	tb.Helper()
	dir := tb.TempDir()
	rbPath := filepath.Join(dir, "scale.hcl")
	invPath := filepath.Join(dir, "inventory.hcl")
	if err := os.WriteFile(rbPath, []byte(benchfanout.ScaleRunbook(steps)), 0o600); err != nil {
		tb.Fatal(err)
	}
	if err := os.WriteFile(invPath, []byte(benchfanout.ScaleInventory(hosts)), 0o600); err != nil {
		tb.Fatal(err)
	}
	return rbPath, invPath
}

func mustLoad(tb testing.TB, path string) *config.Runbook {
	rb, diags := config.Load(path)
	if diags.HasErrors() {
		tb.Fatal(diags)
	}
	return rb
}

func mustBind(tb testing.TB, rb *config.Runbook, reg *module.Registry) *program.Program {
	prog, diags := program.Bind(rb, reg)
	if diags.HasErrors() {
		tb.Fatal(diags)
	}
	return prog
}

func mustInventory(tb testing.TB, path string) *inventory.Inventory {
	inv, diags := inventory.Load(path)
	if diags.HasErrors() {
		tb.Fatal(diags)
	}
	return inv
}

// mustScope resolves variables and locals and builds the scope, as the
// CLI's prepare does.
func mustScope(tb testing.TB, rb *config.Runbook, prog *program.Program, inv *inventory.Inventory) *eval.Scope {
	vars, diags := eval.ResolveVariables(rb, eval.Inputs{})
	if diags.HasErrors() {
		tb.Fatal(diags)
	}
	hosts := make([]eval.HostInfo, 0, len(inv.Hosts))
	for _, h := range inv.Hosts {
		hosts = append(hosts, eval.HostInfo{Name: h.Name, Address: h.Address, Groups: h.Groups, Vars: h.Vars})
	}
	groups := map[string][]string{}
	for name, g := range inv.Groups {
		groups[name] = g.Hosts
	}
	scope := eval.NewScope(vars.Values, hosts, groups, rb.BaseDir, prog.ResultTypes())
	locals, diags := eval.EvalLocals(rb, scope.Base())
	if diags.HasErrors() {
		tb.Fatal(diags)
	}
	scope.Locals = locals
	return scope
}

// run plans or applies prog with instant fake hosts and fails on a failed
// outcome: every step must have planned or run on its hosts.
func run(tb testing.TB, prog *program.Program, scope *eval.Scope, inv *inventory.Inventory, mode apply.Mode) *apply.Outcome {
	tb.Helper()
	hosts := map[string]module.Host{}
	for _, h := range inv.Hosts {
		hosts[h.Name] = instantHost(h.Name)
	}
	r := apply.New(prog, scope, inv, apply.Options{Mode: mode, Forks: apply.DefaultForks,
		Host: func(name string) module.Host { return hosts[name] }})
	out, err := r.Run(context.Background())
	if err != nil {
		tb.Fatal(err)
	}
	if out.Failed || len(out.Diagnostics) > 0 {
		tb.Fatalf("%s failed: %v", mode, out.Diagnostics)
	}
	return out
}

// instantHost answers every command at once: exit 1 for guards (test -e,
// so plan says the step will run), exit 0 for everything else.
type instantHost string

func (h instantHost) Name() string { return string(h) }

func (h instantHost) Run(_ context.Context, cmd string, _ io.Reader, _, _ io.Writer) (int, error) {
	if strings.HasPrefix(cmd, "test -e ") {
		return 1, nil
	}
	return 0, nil
}

func (h instantHost) Put(context.Context, string, io.Reader, fs.FileMode) error { return nil }
func (h instantHost) Get(context.Context, string, io.Writer) error              { return nil }
