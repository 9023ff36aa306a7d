package moduletest

import (
	"context"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hcldec"
	"github.com/zclconf/go-cty/cty"

	"github.com/provadev/prova/engine/module"
)

// touch is a minimal module used to exercise the suite. Its flaws are
// switched on by name to check that the suite catches them.
type touch struct{ flaw string }

func (touch) ID() string { return "touch" }

func (touch) Spec() hcldec.Spec {
	return &hcldec.ObjectSpec{"path": &hcldec.AttrSpec{Name: "path", Type: cty.String, Required: true}}
}

func (m touch) Outputs() cty.Type {
	if m.flaw == "output-clash" {
		return cty.Object(map[string]cty.Type{"rc": cty.Number})
	}
	return cty.EmptyObject
}

func (touch) Validate(cty.Value) hcl.Diagnostics { return nil }

func (m touch) Plan(ctx context.Context, req module.PlanRequest) (module.PlanResponse, error) {
	p := req.Args.GetAttr("path").AsString()
	if m.flaw == "writes-in-plan" {
		if _, err := module.Capture(ctx, req.Host, module.Command("touch", p)); err != nil {
			return module.PlanResponse{}, err
		}
	}
	out, err := module.Capture(ctx, req.Host, module.Command("test", "-e", p))
	if err != nil && m.flaw != "swallows-errors" {
		return module.PlanResponse{}, err
	}
	if out.RC == 0 && m.flaw != "not-idempotent" {
		return module.PlanResponse{Action: module.NoOp, Summary: p + " exists"}, nil
	}
	return module.PlanResponse{Action: module.Change, Summary: "create " + p}, nil
}

func (m touch) Apply(ctx context.Context, req module.ApplyRequest) (module.ApplyResponse, error) {
	plan, err := m.Plan(ctx, module.PlanRequest{Host: req.Host, Args: req.Args})
	if err != nil || plan.Action == module.NoOp {
		return module.ApplyResponse{Outputs: cty.EmptyObjectVal}, err
	}
	out, err := module.Capture(ctx, req.Host, module.Command("touch", req.Args.GetAttr("path").AsString()))
	return module.ApplyResponse{Changed: true, RC: out.RC, Outputs: cty.EmptyObjectVal}, err
}

func (touch) Doc() module.Doc {
	return module.Doc{
		Summary: "Creates an empty file.",
		Args:    map[string]string{"path": "File to create."},
		Example: `step "touch" "marker" {
  hosts = "all"
  path  = "/var/tmp/${var.name}"
}`,
	}
}

// fileState models test -e and touch on the fake host's file map.
func fileState(h *FakeHost) {
	h.Handle(`^test -e `, func(cmd string, _ []byte) Reply {
		if _, ok := h.File(strings.TrimPrefix(cmd, "test -e ")); ok {
			return Reply{}
		}
		return Reply{RC: 1}
	})
	h.Handle(`^touch `, func(cmd string, _ []byte) Reply {
		h.SetFile(strings.TrimPrefix(cmd, "touch "), nil, 0o644)
		return Reply{}
	})
}

func TestSuiteAcceptsGoodModule(t *testing.T) {
	Run(t, touch{}, []Case{
		{Name: "create", Body: `path = "/tmp/x"`, Setup: fileState, Probes: []string{`^test -e `}},
		{Name: "exists", Body: `path = "/tmp/x"`, Probes: []string{`^test -e `}, Setup: func(h *FakeHost) {
			fileState(h)
			h.SetFile("/tmp/x", nil, 0o644)
		}},
	})
}

// TestSuiteCatchesFlaws runs the suite against flawed modules in a child
// test process and checks that it fails for the right reason.
func TestSuiteCatchesFlaws(t *testing.T) {
	if testing.Short() {
		t.Skip("runs child test processes")
	}
	for flaw, want := range map[string]string{
		"writes-in-plan":  `Plan issued "touch /tmp/x", which is not one of the case's probes`,
		"not-idempotent":  "Apply is not idempotent",
		"output-clash":    `output "rc" clashes`,
		"swallows-errors": "cancelled during a command returned no error",
		"readonly-writes": `a ReadOnly module's Apply issued "touch /tmp/x", which is not one of the case's probes`,
		"args-drift":      `the moduletest.args struct has a field "mode" the spec does not accept`,
		"mutates-args":    "Plan or Apply modified the argument struct it was handed",
	} {
		t.Run(flaw, func(t *testing.T) {
			cmd := exec.Command(os.Args[0], "-test.run=^TestFlawedModule$", "-test.v")
			cmd.Env = append(os.Environ(), "MODULETEST_FLAW="+flaw, "UPDATE_GOLDEN=")
			out, err := cmd.CombinedOutput()
			if err == nil {
				t.Fatalf("suite passed a module with flaw %s:\n%s", flaw, out)
			}
			if !strings.Contains(string(out), want) {
				t.Fatalf("suite output lacks %q:\n%s", want, out)
			}
		})
	}
}

func TestFlawedModule(t *testing.T) {
	flaw := os.Getenv("MODULETEST_FLAW")
	if flaw == "" {
		t.Skip("only run as a child of TestSuiteCatchesFlaws")
	}
	var m module.Module = touch{flaw: flaw}
	switch flaw {
	case "readonly-writes":
		m = readOnlyTouch{touch{flaw: flaw}}
	case "args-drift":
		m = typedTouch{touch{flaw: flaw}}
	case "mutates-args":
		m = mutatingTouch{touch{flaw: flaw}}
	}
	body := `path = "/tmp/x"`
	if flaw == "mutates-args" {
		body = `path = ["/tmp/x"]`
	}
	Run(t, m, []Case{
		{Name: "create", Body: body, Setup: fileState, Probes: []string{`^test -e `}},
	})
}

// readOnlyTouch declares itself read-only but its Apply writes.
type readOnlyTouch struct{ t touch }

func (m readOnlyTouch) ID() string                           { return m.t.ID() }
func (m readOnlyTouch) Spec() hcldec.Spec                    { return m.t.Spec() }
func (m readOnlyTouch) Outputs() cty.Type                    { return m.t.Outputs() }
func (m readOnlyTouch) Validate(v cty.Value) hcl.Diagnostics { return m.t.Validate(v) }
func (m readOnlyTouch) Reads(cty.Value) string               { return "reads nothing, it says" }
func (m readOnlyTouch) Apply(ctx context.Context, req module.ApplyRequest) (module.ApplyResponse, error) {
	out, err := module.Capture(ctx, req.Host, module.Command("touch", req.Args.GetAttr("path").AsString()))
	return module.ApplyResponse{RC: out.RC, Outputs: cty.EmptyObjectVal}, err
}

// typedTouch decodes into a struct that names an argument the spec lacks.
type typedTouch struct{ touch }

type args struct {
	Path string `cty:"path"`
	Mode string `cty:"mode"`
}

func (typedTouch) NewArgs() any { return new(args) }

// mutatingTouch reads its arguments as a struct and writes into the one the
// engine handed it, which the engine shares between hosts.
type mutatingTouch struct{ touch }

type pathArgs struct {
	Path []string `cty:"path"`
}

func (mutatingTouch) Spec() hcldec.Spec {
	return &hcldec.ObjectSpec{"path": &hcldec.AttrSpec{Name: "path", Type: cty.List(cty.String), Required: true}}
}

func (mutatingTouch) NewArgs() any { return new(pathArgs) }

func (m mutatingTouch) Apply(ctx context.Context, req module.ApplyRequest) (module.ApplyResponse, error) {
	a, err := module.Args[pathArgs](req)
	if err != nil {
		return module.ApplyResponse{}, err
	}
	a.Path[0] = "/elsewhere" // the copy is shallow: this writes into the shared slice
	return module.ApplyResponse{Outputs: cty.EmptyObjectVal}, nil
}

func (m mutatingTouch) Plan(ctx context.Context, req module.PlanRequest) (module.PlanResponse, error) {
	return module.PlanResponse{Action: module.NoOp, Summary: "nothing to do"}, nil
}
