package shell

import (
	"context"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hcldec"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/provadev/prova/engine/module"
	"github.com/provadev/prova/engine/module/moduletest"
)

// decode decodes an HCL body with the module's spec, as the engine does.
func decode(t *testing.T, src string) (cty.Value, hcl.Diagnostics) {
	t.Helper()
	f, diags := hclsyntax.ParseConfig([]byte(src), "step.hcl", hcl.InitialPos)
	if diags.HasErrors() {
		t.Fatalf("parse: %s", diags.Error())
	}
	return hcldec.Decode(f.Body, New().Spec(), nil)
}

func mustDecode(t *testing.T, src string) cty.Value {
	t.Helper()
	v, diags := decode(t, src)
	if diags.HasErrors() {
		t.Fatalf("decode: %s", diags.Error())
	}
	return v
}

func TestBadArgumentsPointAtTheAttribute(t *testing.T) {
	for _, tc := range []struct {
		name, src, summary string
		line               int
	}{
		{"env name", "command = \"x\"\nenv = { \"1BAD\" = \"v\" }", "Invalid environment variable name", 2},
		{"env name with dash", "command = \"x\"\n\nenv = { \"A-B\" = \"v\" }", "Invalid environment variable name", 3},
		{"empty command", `command = ""`, "Empty command", 1},
		{"empty creates", "command = \"x\"\ncreates = \"\"", "Empty creates", 2},
		{"missing command", `check = "true"`, "Missing required argument", 1},
		{"wrong type", "command = \"x\"\nenv = [\"A\"]", "Incorrect attribute value type", 2},
		{"unknown argument", "command = \"x\"\ncommnd = \"y\"", "Unsupported argument", 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, diags := decode(t, tc.src)
			if !diags.HasErrors() {
				t.Fatal("no error")
			}
			d := diags[0]
			if d.Summary != tc.summary {
				t.Errorf("summary = %q, want %q", d.Summary, tc.summary)
			}
			if d.Subject == nil || d.Subject.Start.Line != tc.line {
				t.Errorf("subject = %v, want line %d", d.Subject, tc.line)
			}
		})
	}
}

func TestFailedCommand(t *testing.T) {
	h := moduletest.NewFakeHost("n1")
	h.Reply(`^sh -c`, moduletest.Reply{RC: 2, Stdout: "partial\n", Stderr: "line one\nmmchconfig: Command failed.\n"})
	resp, err := New().Apply(context.Background(), module.ApplyRequest{Host: h, Args: mustDecode(t, `command = "mmchconfig verbsRdma=enable"`)})
	if err != nil {
		t.Fatal(err)
	}
	if !resp.Failed || !resp.Changed || resp.RC != 2 || resp.Stdout != "partial\n" {
		t.Fatalf("resp = %+v", resp)
	}
	if want := "command exited with rc 2: mmchconfig: Command failed."; resp.Message != want {
		t.Fatalf("message = %q, want %q", resp.Message, want)
	}
}

func TestUnreachable(t *testing.T) {
	args := mustDecode(t, "command = \"true\"\ncreates = \"/x\"")
	h := moduletest.NewFakeHost("n1")
	h.Unreachable()
	_, err := New().Plan(context.Background(), module.PlanRequest{Host: h, Args: args})
	if !module.IsUnreachable(err) {
		t.Errorf("Plan: %v, want an unreachable error", err)
	}
	_, err = New().Apply(context.Background(), module.ApplyRequest{Host: h, Args: args})
	if !module.IsUnreachable(err) {
		t.Errorf("Apply: %v, want an unreachable error", err)
	}
	h2 := moduletest.NewFakeHost("n2")
	h2.Unreachable()
	_, err = New().Apply(context.Background(), module.ApplyRequest{Host: h2, Args: mustDecode(t, `command = "true"`)})
	if !module.IsUnreachable(err) {
		t.Errorf("Apply without guard: %v, want an unreachable error", err)
	}
}

func TestGuardToolError(t *testing.T) {
	h := moduletest.NewFakeHost("n1")
	h.Reply(`^test -e`, moduletest.Reply{RC: 2, Stderr: "test: too many arguments\n"})
	_, err := New().Plan(context.Background(), module.PlanRequest{Host: h, Args: mustDecode(t, "command = \"true\"\ncreates = \"/x\"")})
	if err == nil || !strings.Contains(err.Error(), "exited 2: test: too many arguments") {
		t.Fatalf("Plan: %v, want the test error", err)
	}
}

func TestPlannedNoOpSkipsCommand(t *testing.T) {
	h := moduletest.NewFakeHost("n1")
	planned := module.PlanResponse{Action: module.NoOp, Summary: "already done: /x exists"}
	resp, err := New().Apply(context.Background(), module.ApplyRequest{Host: h, Args: mustDecode(t, "command = \"true\"\ncreates = \"/x\""), Planned: &planned})
	if err != nil || resp.Changed || len(h.Commands()) != 0 {
		t.Fatalf("resp = %+v, err = %v, commands %q", resp, err, h.Commands())
	}
}

func TestStdinReachesCommand(t *testing.T) {
	h := moduletest.NewFakeHost("n1")
	var got []byte
	h.Handle(`^sh -c`, func(_ string, in []byte) moduletest.Reply { got = in; return moduletest.Reply{} })
	_, err := New().Apply(context.Background(), module.ApplyRequest{Host: h, Args: mustDecode(t, "command = \"cat\"\nstdin = \"a\\nb\"")})
	if err != nil || string(got) != "a\nb" {
		t.Fatalf("stdin = %q, err = %v", got, err)
	}
}

func TestOneLine(t *testing.T) {
	if got := oneLine("  set -e\n  make\n"); got != "set -e ..." {
		t.Errorf("oneLine = %q", got)
	}
	if got := oneLine(strings.Repeat("é", 150)); len([]rune(got)) != 100 {
		t.Errorf("oneLine kept %d runes", len([]rune(got)))
	}
}
