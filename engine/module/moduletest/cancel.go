package moduletest

import (
	"context"
	"testing"
	"time"

	"github.com/zclconf/go-cty/cty"

	"github.com/provadev/prova/engine/module"
)

// cancelDeadline bounds how long Plan or Apply may take to return after
// their context is cancelled. It is generous: it catches modules that
// ignore cancellation, not slow ones.
const cancelDeadline = 10 * time.Second

type phase struct {
	name string
	call func(ctx context.Context, h *FakeHost) error
}

func phases(m module.Module, c Case, args cty.Value) []phase {
	var ps []phase
	if p, ok := m.(module.Planner); ok {
		ps = append(ps, phase{"Plan", func(ctx context.Context, h *FakeHost) error {
			_, err := module.CallPlan(ctx, p, module.PlanRequest{Host: h, Args: args, Typed: typedArgs(m, args), BaseDir: c.BaseDir})
			return err
		}})
	}
	return append(ps, phase{"Apply", func(ctx context.Context, h *FakeHost) error {
		_, err := module.CallApply(ctx, m, module.ApplyRequest{Host: h, Args: args, Typed: typedArgs(m, args), BaseDir: c.BaseDir})
		return err
	}})
}

// checkCancel checks that Plan and Apply fail promptly with an error, both
// when called with a cancelled context and when it is cancelled while one of
// their commands runs.
func checkCancel(t *testing.T, m module.Module, c Case, args cty.Value) {
	t.Helper()
	for _, p := range phases(m, c, args) {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		done := make(chan error, 1)
		go func() { done <- p.call(ctx, newHost(c)) }()
		if err := await(t, done, p.name+" with a cancelled context"); err == nil {
			t.Errorf("%s with a cancelled context returned no error", p.name)
		}

		h := newHost(c)
		started := h.Hang("")
		ctx, cancel = context.WithCancel(context.Background())
		done = make(chan error, 1)
		go func() { done <- p.call(ctx, h) }()
		select {
		case <-started:
			cancel()
			if err := await(t, done, p.name+" cancelled during a command"); err == nil {
				t.Errorf("%s cancelled during a command returned no error", p.name)
			}
		case <-done:
			// It ran no command, so there was nothing to interrupt.
			cancel()
		}
	}
}

func await(t *testing.T, done <-chan error, what string) error {
	t.Helper()
	timer := time.NewTimer(cancelDeadline)
	defer timer.Stop()
	select {
	case err := <-done:
		return err
	case <-timer.C:
		t.Fatalf("%s did not return within %s", what, cancelDeadline)
		return nil
	}
}
