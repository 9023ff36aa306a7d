package apply

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hcldec"
	"github.com/zclconf/go-cty/cty"

	"github.com/provadev/prova/engine/event"
	"github.com/provadev/prova/engine/module"
)

// probeModule is read-only: it runs command and fails when it exits
// non-zero. The engine runs it for real in plan.
type probeModule struct{}

func (probeModule) ID() string { return "probe" }
func (probeModule) Spec() hcldec.Spec {
	return &hcldec.ObjectSpec{"command": &hcldec.AttrSpec{Name: "command", Type: cty.String, Required: true}}
}
func (probeModule) Outputs() cty.Type                  { return cmdModule{}.Outputs() }
func (probeModule) Validate(cty.Value) hcl.Diagnostics { return nil }
func (probeModule) Reads(v cty.Value) string           { return "reads " + v.GetAttr("command").AsString() }
func (probeModule) Apply(ctx context.Context, req module.ApplyRequest) (module.ApplyResponse, error) {
	resp, err := cmdModule{}.Apply(ctx, req)
	resp.Changed = false
	return resp, err
}

// wipeModule may change hosts and destroys data when device is under /dev/.
type wipeModule struct{ cmdModule }

func (wipeModule) ID() string { return "wipe" }
func (wipeModule) Spec() hcldec.Spec {
	return &hcldec.ObjectSpec{
		"command": &hcldec.AttrSpec{Name: "command", Type: cty.String, Required: true},
		"device":  &hcldec.AttrSpec{Name: "device", Type: cty.String, Required: true},
	}
}
func (wipeModule) Plan(ctx context.Context, req module.PlanRequest) (module.PlanResponse, error) {
	return module.PlanResponse{Action: module.Change, Summary: "will wipe " + req.Args.GetAttr("device").AsString()}, nil
}
func (wipeModule) DestroysData(v cty.Value) string {
	if d := v.GetAttr("device").AsString(); strings.HasPrefix(d, "/dev/") {
		return "overwrites " + d
	}
	return ""
}

func plannedBy(out *Outcome) map[string]event.PlannedHost {
	m := map[string]event.PlannedHost{}
	for _, p := range out.Planned {
		m[p.Step+"@"+p.Host] = p
	}
	return m
}

// Read-only steps run for real in plan: their results make later arguments
// known, a failing check is "would fail" and drops the host, and no command
// of a module that changes hosts runs. A read-only step after a planned
// change is not run: what it reads may be what the change changes.
func TestPlanRunsReadOnlyStepsForReal(t *testing.T) {
	s := newRun(t, `
step "probe" "who" { command = "whoami" }
step "probe" "check" { command = "fail-on n2" }
step "cmd" "greet" { command = "echo hello ${step.who.lines[0]}" }
step "cmd" "after" { command = "echo after" }
step "probe" "verify" { command = "whoami" }
`, three, ModePlan)
	out, err := s.r.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	p := plannedBy(out)
	if got := p["cmd.greet@n3"]; got.Action != event.PlanChange || got.Summary != "will run echo hello n3" {
		t.Errorf("greet on n3 = %+v: the probe's real result did not reach its arguments", got)
	}
	if got := p["probe.check@n2"]; got.Action != event.PlanWouldFail || !strings.Contains(got.Summary, "exit status 3") {
		t.Errorf("check on n2 = %+v, want would fail", got)
	}
	if got := p["probe.check@n1"]; got.Action != event.PlanNoChange || got.Summary != "reads fail-on n2" {
		t.Errorf("check on n1 = %+v", got)
	}
	if _, ok := p["cmd.after@n2"]; ok {
		t.Error("n2 would fail at probe.check but was planned for a later step")
	}
	if got := p["probe.verify@n1"]; got.Action != event.PlanUnknown || got.Summary != "runs after cmd.greet, planned to change" {
		t.Errorf("verify on n1 = %+v, want known after apply", got)
	}
	if out.WouldFail != 1 || !out.Failed || out.Changes != 4 {
		t.Errorf("outcome: would fail %d, failed %t, changes %d", out.WouldFail, out.Failed, out.Changes)
	}
	for _, c := range s.fleet.commands() {
		if strings.Contains(c, "echo") {
			t.Errorf("plan ran %q, a command of a module that changes hosts", c)
		}
	}
	if cmds := s.fleet.commands(); len(cmds) != 6 || !slices.Contains(cmds, "n2: whoami") || !slices.Contains(cmds, "n2: fail-on n2") {
		t.Errorf("plan did not run the probes: %v", cmds)
	}
}

// A planned step's changed is known to later steps, its outputs are not. A
// step that depends on a step planned to change on any host is not probed
// (the change may be cluster-wide: a restart, a new connection).
func TestPlanKnowsWhetherAStepChanges(t *testing.T) {
	s := newRun(t, `
step "cmd" "make" {
  command = "echo made"
  check   = "fail-on n1"
}
step "probe" "only_if_unchanged" {
  when    = !step.make.changed
  command = "whoami"
}
step "probe" "uses_output" { command = "echo ${step.make.lines[0]}" }
`, []string{"n1", "n2"}, ModePlan)
	out, _ := s.r.Run(context.Background())
	p := plannedBy(out)
	for k, want := range map[string]event.PlanAction{
		"cmd.make@n1": event.PlanChange, "cmd.make@n2": event.PlanNoChange,
		"probe.only_if_unchanged@n1": event.PlanSkip, "probe.only_if_unchanged@n2": event.PlanUnknown,
		"probe.uses_output@n1": event.PlanUnknown, "probe.uses_output@n2": event.PlanUnknown,
	} {
		if p[k].Action != want {
			t.Errorf("%s = %q (%s), want %q", k, p[k].Action, p[k].Summary, want)
		}
	}
	if cmds := s.fleet.commands(); slices.Contains(cmds, "n1: whoami") || slices.Contains(cmds, "n2: whoami") {
		t.Errorf("commands %v", cmds)
	}
}

// max_fail_percentage stops the plan where it would stop apply, through the
// same decision (a typed cause, not a string).
func TestPlanStopsWhereApplyWould(t *testing.T) {
	s := newRun(t, `
step "probe" "pre" {
  command             = "fail-on n2"
  max_fail_percentage = 0
}
step "cmd" "change" { command = "echo x" }
`, three, ModePlan)
	out, _ := s.r.Run(context.Background())
	var ab *event.Aborted
	for _, e := range s.ev.all() {
		if a, ok := e.(event.Aborted); ok {
			ab = &a
		}
	}
	if ab == nil || ab.Cause != event.AbortMaxFail || !strings.Contains(ab.Reason, "1 of 3 hosts failed") {
		t.Fatalf("aborted = %+v", ab)
	}
	if len(plannedBy(out)) != 3 || !out.Failed {
		t.Errorf("planned %v, failed %t", plannedBy(out), out.Failed)
	}
}

// A destructive step runs only with destructive = true and the host allowed
// on the command line; plan says so, apply refuses before running anything.
func TestDestructiveInterlock(t *testing.T) {
	const unmarked = `
step "wipe" "w" {
  command = "echo wiped"
  device  = "/dev/nvme1n1"
}`
	const marked = `
step "wipe" "w" {
  command     = "echo wiped"
  device      = "/dev/nvme1n1"
  destructive = true
}`
	allowN1 := func(h string) bool { return h == "n1" }
	for _, tc := range []struct {
		name  string
		src   string
		allow func(string) bool
		want  map[string]event.PlanAction
	}{
		{"unmarked", unmarked, allowN1, map[string]event.PlanAction{"n1": event.PlanWouldFail, "n2": event.PlanWouldFail}},
		{"not allowed", marked, nil, map[string]event.PlanAction{"n1": event.PlanWouldFail, "n2": event.PlanWouldFail}},
		{"allowed on n1", marked, allowN1, map[string]event.PlanAction{"n1": event.PlanChange, "n2": event.PlanWouldFail}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, mode := range []Mode{ModePlan, ModeApply} {
				s := newRun(t, tc.src, []string{"n1", "n2"}, mode)
				s.r.opts.AllowDestructive = tc.allow
				out, _ := s.r.Run(context.Background())
				ran := s.fleet.commands()
				for h, want := range tc.want {
					if mode == ModePlan {
						p := plannedBy(out)["wipe.w@"+h]
						if p.Action != want || p.Destructive != "overwrites /dev/nvme1n1" {
							t.Errorf("plan on %s = %+v, want %s", h, p, want)
						}
						continue
					}
					f := s.ev.finished()["wipe.w@"+h]
					didRun := slices.Contains(ran, h+": echo wiped")
					if want == event.PlanChange && (f.Status != event.Changed || !didRun) {
						t.Errorf("apply on %s: %s %q, ran %t", h, f.Status, f.Message, didRun)
					}
					if want == event.PlanWouldFail && (f.Status != event.Failed || !strings.Contains(f.Message, "refused") || didRun) {
						t.Errorf("apply on %s: %s %q, ran %t", h, f.Status, f.Message, didRun)
					}
				}
			}
		})
	}
}
