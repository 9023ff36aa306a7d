package apply

import (
	"context"
	"slices"
	"testing"
	"time"
)

// In free order, a fast host runs ahead while a slow one is still busy; a
// step that reads per_host waits for everyone.
func TestFreeStrategyLetsHostsRunAhead(t *testing.T) {
	s := newRun(t, `
step "cmd" "a" { command = "${host.name == "n1" ? "wait-n2-b" : "echo a"}" }
step "cmd" "b" { command = "echo b" }
step "cmd" "all" {
  run_once = true
  command  = "echo ${length(per_host.b)}"
}
`, []string{"n1", "n2"}, ModeApply)
	s.r.opts.Strategy = Free
	release := make(chan struct{})
	s.fleet.hook = func(host, cmd string) {
		if host == "n2" && cmd == "echo b" {
			close(release)
		}
	}
	s.fleet.wait = release
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	out, _ := s.r.Run(ctx)
	if out.Failed || out.Interrupted {
		t.Fatalf("outcome %+v: n1 waited for n2 to finish step b, which free order must allow", out)
	}
	cmds := s.fleet.commands()
	if !slices.Contains(cmds, "n1: echo 2") {
		t.Errorf("the per_host step must see both hosts' results: %v", cmds)
	}
}
