package apply

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/provadev/prova/engine/event"
)

// TestHaltStopsBeforeTheNextChange: once Halt answers, the host-steps in
// flight finish and nothing new starts; the run ends as an abort with
// Halt's reason. Both strategies.
func TestHaltStopsBeforeTheNextChange(t *testing.T) {
	for _, strategy := range []string{Linear, Free} {
		t.Run(strategy, func(t *testing.T) {
			s := newRun(t, `
step "cmd" "a" { command = "echo one" }
step "cmd" "b" { command = "echo two" }
`, three, ModeApply)
			var stop atomic.Bool
			s.r.opts.Strategy = strategy
			s.r.opts.Forks = 1 // one host at a time: the halt lands between host-steps
			s.r.opts.Observer = event.Multi{s.ev, event.Func(func(e event.Event) {
				if hf, ok := e.(event.HostFinished); ok && hf.Host == "n1" && hf.Step == "cmd.a" {
					stop.Store(true) // the record write of this host-step failed
				}
			})}
			s.r.opts.Halt = func() string {
				if stop.Load() {
					return "the run record cannot be written"
				}
				return ""
			}
			out, err := s.r.Run(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			cmds := s.fleet.commands()
			if len(cmds) != 1 || cmds[0] != "n1: echo one" {
				t.Errorf("commands after the halt: %v", cmds)
			}
			var ab *event.Aborted
			for _, e := range s.ev.all() {
				if a, ok := e.(event.Aborted); ok {
					ab = &a
				}
			}
			if ab == nil || !strings.Contains(ab.Reason, "run record") {
				t.Errorf("aborted = %+v", ab)
			}
			_ = out
		})
	}
}
