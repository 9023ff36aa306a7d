package wait

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hcldec"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/provadev/prova/engine/module"
	"github.com/provadev/prova/engine/module/moduletest"
)

// sequence replies with replies in turn, repeating the last one.
func sequence(replies ...moduletest.Reply) moduletest.Handler {
	var mu sync.Mutex
	n := 0
	return func(string, []byte) moduletest.Reply {
		mu.Lock()
		defer mu.Unlock()
		r := replies[min(n, len(replies)-1)]
		n++
		return r
	}
}

func TestConformance(t *testing.T) {
	moduletest.Run(t, New(), []moduletest.Case{
		{
			Name: "immediate",
			Body: `command = "/usr/lpp/mmfs/bin/mmgetstate -Y"`,
			Setup: func(h *moduletest.FakeHost) {
				h.Reply(`mmgetstate`, moduletest.Reply{Stdout: "mmgetstate::0:1:::n1:1:active:\n"})
			},
		},
		{
			Name: "polls",
			Body: "command = \"systemctl is-active gpfs\"\ninterval = \"1ms\"",
			Setup: func(h *moduletest.FakeHost) {
				h.Handle(`is-active`, sequence(
					moduletest.Reply{RC: 3, Stdout: "inactive\n"},
					moduletest.Reply{RC: 3, Stdout: "activating\n"},
					moduletest.Reply{Stdout: "active\n"}))
			},
		},
		{
			Name: "match",
			Body: "command = \"ibstat mlx5_0 1\"\nmatch = \"State: Active\"\ninterval = \"1ms\"",
			Setup: func(h *moduletest.FakeHost) {
				h.Handle(`ibstat`, sequence(
					moduletest.Reply{Stdout: "State: Initializing\n"},
					moduletest.Reply{Stdout: "State: Active\n"}))
			},
		},
	})
}

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
		src, summary string
		line         int
	}{
		{"command = \"x\"\ninterval = \"fast\"", "Invalid duration", 2},
		{"command = \"x\"\n\nmax_wait = \"0s\"", "Invalid duration", 3},
		{"command = \"x\"\nmax_wait = \"-1m\"", "Invalid duration", 2},
		{"command = \"x\"\nmatch = \"(\"", "Invalid regular expression", 2},
		{"command = \"\"", "Empty command", 1},
		{"command = \"x\"\ntimeout = \"1m\"", "Unsupported argument", 2},
	} {
		_, diags := decode(t, tc.src)
		if !diags.HasErrors() || diags[0].Summary != tc.summary {
			t.Errorf("%q: diags = %v, want %q", tc.src, diags, tc.summary)
			continue
		}
		if s := diags[0].Subject; s == nil || s.Start.Line != tc.line {
			t.Errorf("%q: subject %v, want line %d", tc.src, s, tc.line)
		}
	}
}

func TestTimesOutWithLastOutput(t *testing.T) {
	h := moduletest.NewFakeHost("n1")
	h.Reply(`.`, moduletest.Reply{RC: 3, Stdout: "State: Down\n"})
	var progress []module.Progress
	resp, err := New().Apply(context.Background(), module.ApplyRequest{
		Host: h, Args: mustDecode(t, "command = \"ibstat mlx5_0 1\"\ninterval = \"1ms\"\nmax_wait = \"30ms\""),
		Progress: func(p module.Progress) { progress = append(progress, p) },
	})
	if err != nil {
		t.Fatal(err)
	}
	if !resp.Failed || resp.Changed || resp.RC != 3 || resp.Stdout != "State: Down\n" {
		t.Fatalf("resp = %+v", resp)
	}
	if !strings.HasPrefix(resp.Message, "timed out after 30ms (") || !strings.HasSuffix(resp.Message, "last rc 3: State: Down") {
		t.Errorf("message = %q", resp.Message)
	}
	// The last attempt may be cut short by max_wait, without a progress report.
	n, _ := resp.Outputs.GetAttr("attempts").AsBigFloat().Int64()
	if int(n) != len(h.Commands()) || len(progress) < int(n)-1 || len(progress) > int(n) {
		t.Errorf("attempts = %d, commands = %d, progress reports = %d", n, len(h.Commands()), len(progress))
	}
	for i, p := range progress {
		if want := fmt.Sprintf("attempt %d: last rc 3: State: Down", i+1); p.Message != want {
			t.Fatalf("progress %d = %q, want %q", i, p.Message, want)
		}
	}
}

func TestUnreachableCountsAsAttempt(t *testing.T) {
	down := &module.UnreachableError{Err: errors.New("connection refused")}
	h := moduletest.NewFakeHost("n1")
	h.Handle(`.`, sequence(moduletest.Reply{RC: -1, Err: down}, moduletest.Reply{RC: -1, Err: down}, moduletest.Reply{}))
	resp, err := New().Apply(context.Background(), module.ApplyRequest{Host: h, Args: mustDecode(t, "command = \"true\"\ninterval = \"1ms\"")})
	if err != nil || resp.Failed {
		t.Fatalf("resp = %+v, err = %v", resp, err)
	}
	if n, _ := resp.Outputs.GetAttr("attempts").AsBigFloat().Int64(); n != 3 {
		t.Errorf("attempts = %d, want 3", n)
	}
}

func TestStillUnreachable(t *testing.T) {
	h := moduletest.NewFakeHost("n1")
	h.Unreachable()
	_, err := New().Apply(context.Background(), module.ApplyRequest{Host: h, Args: mustDecode(t, "command = \"true\"\ninterval = \"1ms\"\nmax_wait = \"20ms\"")})
	if !module.IsUnreachable(err) || !strings.Contains(err.Error(), "still unreachable after 20ms") {
		t.Fatalf("Apply: %v, want unreachable", err)
	}
}

func TestOtherErrorStops(t *testing.T) {
	boom := errors.New("session broke")
	h := moduletest.NewFakeHost("n1")
	h.Reply(`.`, moduletest.Reply{RC: -1, Err: boom})
	_, err := New().Apply(context.Background(), module.ApplyRequest{Host: h, Args: mustDecode(t, "command = \"true\"\ninterval = \"1ms\"")})
	if !errors.Is(err, boom) || len(h.Commands()) != 1 {
		t.Fatalf("Apply: %v after %d commands, want the error after 1", err, len(h.Commands()))
	}
}

func TestCancelledWhileWaiting(t *testing.T) {
	h := moduletest.NewFakeHost("n1")
	h.Reply(`.`, moduletest.Reply{RC: 1, Stderr: "not yet\n"})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	_, err := New().Apply(ctx, module.ApplyRequest{
		Host: h, Args: mustDecode(t, "command = \"true\"\ninterval = \"1h\""),
		// The operator interrupts after the first failed attempt.
		Progress: func(module.Progress) { cancel() },
	})
	if !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "after 1 attempts (last rc 1: not yet)") {
		t.Fatalf("Apply: %v, want cancellation naming the last output", err)
	}
}

func TestPlanSummary(t *testing.T) {
	var m module.Module = New()
	if _, ok := m.(module.ApplyOnly); !ok {
		t.Fatal("wait is not ApplyOnly: plan would run the author's command")
	}
	if got, want := New().Reads(mustDecode(t, "command = \"ibstat\"\nmatch = \"Active\"")), "waits for: ibstat to print /Active/ (every 2s, up to 5m)"; got != want {
		t.Fatalf("Reads = %q, want %q", got, want)
	}
}
