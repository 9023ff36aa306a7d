package apply

import (
	"context"
	"slices"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"

	"github.com/provadev/prova/engine/event"
	"github.com/provadev/prova/engine/module"
)

// Expressions that do not depend on the host are evaluated once per step
// and shared; those that read host.*, step.* or self are evaluated per
// host. Either way every host must see its own values.
func TestStepEvalSharesOnlyHostIndependentValues(t *testing.T) {
	s := newRun(t, `
locals { greeting = "hello" }
step "cmd" "same" { command = "echo ${local.greeting}" }
step "cmd" "own" {
  when    = host.name != "n2"
  command = "echo ${host.name} ${step.same.lines[0]}"
}
step "cmd" "count" {
  when    = length([for h, r in per_host.own : h if !r.skipped]) == 2
  command = "echo ${length(per_host.own)} ${step.own.skipped}"
}
`, three, ModeApply)
	out, err := s.r.Run(context.Background())
	if err != nil || out.Failed {
		t.Fatalf("run failed: %v %v", err, out.Diagnostics)
	}
	got := s.fleet.commands()
	slices.Sort(got)
	want := []string{
		"n1: echo 3 false", "n1: echo hello", "n1: echo n1 hello",
		"n2: echo 3 true", "n2: echo hello",
		"n3: echo 3 false", "n3: echo hello", "n3: echo n3 hello",
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("commands (-want +got):\n%s", d)
	}
	if st := s.ev.finished()["cmd.own@n2"].Status; st != event.Skipped {
		t.Errorf("own on n2: %s, want skipped", st)
	}
}

// In plan every step result is unknown on every host, so an argument that
// reads step.* is "known after apply" everywhere, while host.* still gives
// each host its own plan.
func TestStepEvalPlanPerHost(t *testing.T) {
	s := newRun(t, `
step "cmd" "first" {
  command = "echo one"
  check   = "true"
}
step "cmd" "later" { command = "echo ${step.first.lines[0]}" }
step "cmd" "mine" { command = "echo ${host.name}" }
`, three, ModePlan)
	out, err := s.r.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, p := range out.Planned {
		got[p.Step+"@"+p.Host] = string(p.Action) + ": " + p.Summary
	}
	for _, h := range three {
		if g := got["cmd.later@"+h]; g != "known after apply: arguments depend on results of earlier steps" {
			t.Errorf("later on %s: %q", h, g)
		}
		if g, w := got["cmd.mine@"+h], "change: will run echo "+h; g != w {
			t.Errorf("mine on %s: %q, want %q", h, g, w)
		}
	}
}

// typedModule is cmd with an argument struct: it runs the command it
// reads with module.Args and keeps the struct the engine handed each
// host-step.
type typedModule struct {
	cmdModule
	mu   sync.Mutex
	seen map[string]any // step/host -> req.Typed
}

type typedModuleArgs struct {
	Command string  `cty:"command"`
	Check   *string `cty:"check"`
}

func (*typedModule) ID() string   { return "typed" }
func (*typedModule) NewArgs() any { return new(typedModuleArgs) }
func (m *typedModule) Apply(ctx context.Context, req module.ApplyRequest) (module.ApplyResponse, error) {
	m.mu.Lock()
	m.seen[req.Args.GetAttr("command").AsString()+"@"+req.Host.Name()] = req.Typed
	m.mu.Unlock()
	a, err := module.Args[typedModuleArgs](req)
	if err != nil {
		return module.ApplyResponse{}, err
	}
	o, err := module.Capture(ctx, req.Host, a.Command)
	return module.ApplyResponse{Changed: true, RC: o.RC, Stdout: o.Stdout,
		Outputs: cty.ObjectVal(map[string]cty.Value{"lines": cty.ListValEmpty(cty.String)})}, err
}

// The engine decodes a module's arguments into its struct once per step
// when they are the same on every host, and once per host when they are
// not; each host runs with its own values either way.
func TestStepEvalDecodesTypedArgumentsOncePerStep(t *testing.T) {
	s := newRun(t, `
step "typed" "same" { command = "echo same" }
step "typed" "own" { command = "echo ${host.name}" }
`, three, ModeApply)
	out, err := s.r.Run(context.Background())
	if err != nil || out.Failed {
		t.Fatalf("run failed: %v %v", err, out.Diagnostics)
	}
	got := s.fleet.commands()
	slices.Sort(got)
	want := []string{"n1: echo n1", "n1: echo same", "n2: echo n2", "n2: echo same", "n3: echo n3", "n3: echo same"}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("commands (-want +got):\n%s", d)
	}
	var m *typedModule
	for _, st := range s.r.prog.Steps {
		if tm, ok := st.Module.(*typedModule); ok {
			m = tm
		}
	}
	same := map[any]bool{}
	for _, h := range three {
		typed, ok := m.seen["echo same@"+h].(*typedModuleArgs)
		if !ok {
			t.Fatalf("same on %s: Typed is %T, want *typedModuleArgs", h, m.seen["echo same@"+h])
		}
		same[typed] = true
		own, ok := m.seen["echo "+h+"@"+h].(*typedModuleArgs)
		if !ok || own.Command != "echo "+h {
			t.Errorf("own on %s: Typed = %#v", h, m.seen["echo "+h+"@"+h])
		}
	}
	if len(same) != 1 {
		t.Errorf("same: %d argument structs for three hosts, want one decoded for the step", len(same))
	}
}

// An argument or a when that reads what several hosts share (here an
// earlier step's output) is evaluated once per distinct input: the hosts
// with the same input share one decoded argument struct, a host with
// another input gets its own, and each runs its own command. A
// diagnostic is never shared: on each host it names that host's context.
func TestStepEvalMemoisesByInput(t *testing.T) {
	hosts := []string{"n1", "n2", "n3", "n4"}
	s := newRun(t, `
step "cmd" "first" { command = "echo ${host.name == "n2" ? "b" : "a"}" }
step "typed" "own" {
  when    = step.first.lines[0] != "zzz"
  command = "echo ${step.first.lines[0]}"
}
step "cmd" "bad" {
  on_failure = "continue"
  command    = "echo ${tonumber(step.first.lines[0])}"
}
`, hosts, ModeApply)
	// Four forks: hosts that evaluate the same input at the same moment
	// still share the first value stored (eval.Memo).
	if _, err := s.r.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	var m *typedModule
	for _, st := range s.r.prog.Steps {
		if tm, ok := st.Module.(*typedModule); ok {
			m = tm
		}
	}
	a := m.seen["echo a@n1"]
	if a == nil || m.seen["echo a@n3"] != a || m.seen["echo a@n4"] != a {
		t.Errorf("hosts with the same input did not share their arguments: %v", m.seen)
	}
	if b := m.seen["echo b@n2"]; b == nil || b == a {
		t.Errorf("n2 (another input) did not get its own arguments: %v", m.seen)
	}
	fin := s.ev.finished()
	for _, h := range hosts {
		hf := fin["cmd.bad@"+h]
		if hf.Status != event.Failed || len(hf.Diagnostics) == 0 {
			t.Fatalf("bad on %s: %s %v, want failed with a diagnostic", h, hf.Status, hf.Diagnostics)
		}
		for _, d := range hf.Diagnostics {
			if d.EvalContext == nil {
				t.Fatalf("bad on %s: a diagnostic without its context: %v", h, d)
			}
			if name := d.EvalContext.Variables["host"].GetAttr("name").AsString(); name != h {
				t.Errorf("bad on %s: its diagnostic names host %s", h, name)
			}
		}
	}
}
