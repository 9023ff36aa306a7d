// Package runbooktest runs a runbook against a lab (lab/labtest) in-process,
// the way the CLI does (config.Load, program.Bind, variables, locals,
// apply.Runner over real SSH with the lab's key and known_hosts), and
// returns the outcome and every event, for integration tests.
//
// It does not build the lab (labtest.Start does) or decide which modules
// exist: tests pass a registry (GPFSRegistry has the GPFS modules, shell and
// assert). It fails the test on load, bind or variable errors.
package runbooktest

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/hashicorp/hcl/v2"

	"github.com/provadev/prova/engine/apply"
	"github.com/provadev/prova/engine/config"
	"github.com/provadev/prova/engine/eval"
	"github.com/provadev/prova/engine/event"
	"github.com/provadev/prova/engine/module"
	"github.com/provadev/prova/engine/program"
	"github.com/provadev/prova/engine/transport/sshconn"
	"github.com/provadev/prova/inventory"
	"github.com/provadev/prova/lab"
	"github.com/provadev/prova/modules/assert"
	"github.com/provadev/prova/modules/gpfsconfig"
	"github.com/provadev/prova/modules/gpfslog"
	"github.com/provadev/prova/modules/gpfsrestart"
	"github.com/provadev/prova/modules/mmchconfig"
	"github.com/provadev/prova/modules/ofed"
	"github.com/provadev/prova/modules/rdmaports"
	"github.com/provadev/prova/modules/shell"
	"github.com/provadev/prova/modules/verbsconn"
	"github.com/provadev/prova/modules/verbsdiag"
	"github.com/provadev/prova/modules/verbsstatus"
)

// GPFSRegistry holds the GPFS verbsRdma modules plus shell and assert.
func GPFSRegistry() *module.Registry {
	r := module.NewRegistry()
	for _, m := range []module.Module{
		shell.New(), assert.New(), rdmaports.New(), ofed.New(), mmchconfig.New(), gpfsconfig.New(),
		gpfsrestart.New(), verbsstatus.New(), verbsconn.New(), gpfslog.New(), verbsdiag.New(),
	} {
		r.Register(m)
	}
	return r
}

// Options select what to run.
type Options struct {
	Mode     apply.Mode // default apply
	Vars     []string   // --var name=value
	Tags     []string
	SkipTags []string
	Registry *module.Registry // default GPFSRegistry()
	Timeout  time.Duration    // default 2 minutes
	// StepTimeout is the run-wide step timeout (--step-timeout); default
	// the runbook's step_timeout.
	StepTimeout time.Duration
}

// Result is a finished run.
type Result struct {
	Outcome *apply.Outcome
	Events  []event.Event
}

// Load parses, binds and prepares a runbook against an inventory; it fails
// t on any error diagnostic.
func Load(t testing.TB, path string, inv *inventory.Inventory, o Options) (*program.Program, *eval.Scope) {
	t.Helper()
	reg := o.Registry
	if reg == nil {
		reg = GPFSRegistry()
	}
	rb, diags := config.Load(path)
	fatal(t, "load", diags)
	prog, diags := program.Bind(rb, reg)
	fatal(t, "bind", diags)
	vars, diags := eval.ResolveVariables(rb, eval.Inputs{Flags: o.Vars})
	fatal(t, "variables", diags)
	var hosts []eval.HostInfo
	groups := map[string][]string{}
	for _, h := range inv.Hosts {
		hosts = append(hosts, eval.HostInfo{Name: h.Name, Address: h.Address, Groups: h.Groups, Vars: h.Vars})
	}
	for name, g := range inv.Groups {
		groups[name] = g.Hosts
	}
	scope := eval.NewScope(vars.Values, hosts, groups, rb.BaseDir, prog.ResultTypes())
	locals, diags := eval.EvalLocals(rb, scope.Base())
	fatal(t, "locals", diags)
	scope.Locals = locals
	return prog, scope
}

func fatal(t testing.TB, what string, diags hcl.Diagnostics) {
	t.Helper()
	if diags.HasErrors() {
		t.Fatalf("runbook %s: %s", what, diags.Error())
	}
}

// Run runs the runbook at path against l.
func Run(t testing.TB, l *lab.Lab, path string, o Options) Result {
	t.Helper()
	inv, diags := inventory.Load(l.InventoryPath())
	fatal(t, "inventory", diags)
	prog, scope := Load(t, path, inv, o)
	if o.Mode == "" {
		o.Mode = apply.ModeApply
	}
	if o.Timeout == 0 {
		o.Timeout = 2 * time.Minute
	}
	pool := sshconn.NewPool(sshconn.Options{SSHConfigFile: "none", Home: t.TempDir()})
	defer pool.Close()
	var mu sync.Mutex
	conns := map[string]module.Host{}
	hostFor := func(name string) module.Host {
		mu.Lock()
		defer mu.Unlock()
		if h, ok := conns[name]; ok {
			return h
		}
		ih, _ := inv.Host(name)
		tg := sshconn.TargetFor(ih)
		h := module.Host(pool.Host(tg))
		conns[name] = h
		return h
	}
	var events []event.Event
	obs := event.Func(func(e event.Event) {
		mu.Lock()
		defer mu.Unlock()
		events = append(events, e)
	})
	ctx, cancel := context.WithTimeout(context.Background(), o.Timeout)
	defer cancel()
	stepTimeout, from := o.StepTimeout, "--step-timeout"
	if stepTimeout == 0 {
		stepTimeout, from = prog.Runbook.StepTimeout, "the runbook's step_timeout"
	}
	runner := apply.New(prog, scope, inv, apply.Options{Mode: o.Mode, RunID: "test", Host: hostFor,
		Tags: o.Tags, SkipTags: o.SkipTags, Observer: obs, StepTimeout: stepTimeout, StepTimeoutFrom: from})
	out, err := runner.Run(ctx)
	if err != nil {
		t.Fatalf("run %s: %v", path, err)
	}
	mu.Lock()
	defer mu.Unlock()
	return Result{Outcome: out, Events: slices.Clone(events)}
}

// Finished returns the HostFinished events of step (by name, e.g. "diag").
func (r Result) Finished(step string) []event.HostFinished {
	var out []event.HostFinished
	for _, e := range r.Events {
		if f, ok := e.(event.HostFinished); ok && (f.Step == step || stepName(f.Step) == step) {
			out = append(out, f)
		}
	}
	return out
}

// Output returns the result attribute attr of step on host, or nil.
func (r Result) Output(step, host, attr string) any {
	for _, f := range r.Finished(step) {
		if f.Host == host && f.Result != nil {
			return f.Result[attr]
		}
	}
	return nil
}

// Describe lists every host's status per step, for failure messages.
func (r Result) Describe() string {
	s := ""
	for _, e := range r.Events {
		if f, ok := e.(event.HostFinished); ok {
			s += fmt.Sprintf("%s on %s: %s %s\n", f.Step, f.Host, f.Status, f.Message)
		}
	}
	return s
}

// stepName strips the module from an ID "module.name".
func stepName(id string) string {
	for i := len(id) - 1; i >= 0; i-- {
		if id[i] == '.' {
			return id[i+1:]
		}
	}
	return id
}
