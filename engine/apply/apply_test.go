package apply

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/provadev/prova/engine/event"
	"github.com/provadev/prova/engine/module"
	"github.com/provadev/prova/engine/program"
)

var three = []string{"n1", "n2", "n3"}

func TestResultsFlowBetweenSteps(t *testing.T) {
	s := newRun(t, `
step "cmd" "who" { command = "whoami" }
step "cmd" "greet" { command = "echo hello ${step.who.lines[0]}" }
step "cmd" "all" {
  run_once = true
  command  = "echo ${join(",", sort([for h, r in per_host.who : "${h}:${r.lines[0]}"]))}"
}
`, three, ModeApply)
	out, err := s.r.Run(context.Background())
	if err != nil || out.Failed {
		t.Fatalf("run failed: %v %+v", err, out)
	}
	cmds := s.fleet.commands()
	for _, h := range three {
		if !slices.Contains(cmds, h+": echo hello "+h) {
			t.Errorf("%s did not see its own result of step.who; commands: %v", h, cmds)
		}
	}
	if !slices.Contains(cmds, "n1: echo n1:n1,n2:n2,n3:n3") {
		t.Errorf("per_host did not hold every host's result: %v", cmds)
	}
	n := 0
	for _, c := range cmds {
		if strings.Contains(c, "echo n1:n1") {
			n++
		}
	}
	if n != 1 {
		t.Errorf("run_once step ran %d times", n)
	}
}

func TestWhenSkipsAndTallies(t *testing.T) {
	s := newRun(t, `
step "cmd" "a" {
  when    = host.name != "n2"
  command = "echo x"
}`, three, ModeApply)
	out, _ := s.r.Run(context.Background())
	if out.Hosts["n2"].Skipped != 1 || out.Hosts["n1"].Changed != 1 {
		t.Fatalf("tallies = %+v", out.Hosts)
	}
	for _, c := range s.fleet.commands() {
		if strings.HasPrefix(c, "n2:") {
			t.Errorf("skipped host ran %q", c)
		}
	}
}

func TestFailedHostDropsOut(t *testing.T) {
	s := newRun(t, `
step "cmd" "a" { command = "fail-on n2" }
step "cmd" "b" { command = "echo after" }
`, three, ModeApply)
	out, _ := s.r.Run(context.Background())
	if !out.Failed || out.Hosts["n2"].Failed != 1 {
		t.Fatalf("outcome = %+v", out)
	}
	cmds := s.fleet.commands()
	if slices.Contains(cmds, "n2: echo after") || !slices.Contains(cmds, "n1: echo after") {
		t.Errorf("n2 must drop out of later steps, others carry on: %v", cmds)
	}
	dropped := false
	for _, e := range s.ev.all() {
		if d, ok := e.(event.HostDropped); ok && d.Host == "n2" {
			dropped = true
		}
	}
	if !dropped {
		t.Error("no HostDropped event for n2")
	}
}

func TestOnFailureContinueKeepsHost(t *testing.T) {
	s := newRun(t, `
step "cmd" "a" {
  on_failure = "continue"
  command    = "fail-on n2"
}
step "cmd" "b" { command = "echo after" }
`, three, ModeApply)
	s.r.Run(context.Background())
	if !slices.Contains(s.fleet.commands(), "n2: echo after") {
		t.Error("on_failure = continue must keep the host in the run")
	}
}

func TestMaxFailPercentageAborts(t *testing.T) {
	s := newRun(t, `
step "cmd" "a" {
  max_fail_percentage = 20
  command             = "fail-on n2"
}
step "cmd" "b" { command = "echo after" }
`, three, ModeApply)
	out, _ := s.r.Run(context.Background())
	if !out.Failed {
		t.Fatal("run should fail")
	}
	for _, c := range s.fleet.commands() {
		if strings.Contains(c, "echo after") {
			t.Errorf("run should have stopped after step a: %q ran", c)
		}
	}
	var ab *event.Aborted
	for _, e := range s.ev.all() {
		if a, ok := e.(event.Aborted); ok {
			ab = &a
		}
	}
	if ab == nil || !strings.Contains(ab.Reason, "max_fail_percentage") {
		t.Errorf("aborted = %+v", ab)
	}
}

func TestUnreachableHostDropsOut(t *testing.T) {
	s := newRun(t, `
step "cmd" "a" {
  on_failure = "continue"
  command    = "echo a"
}
step "cmd" "b" { command = "echo b" }
`, three, ModeApply)
	s.fleet.unreachable["n3"] = true
	out, _ := s.r.Run(context.Background())
	if out.Hosts["n3"].Unreachable != 1 || out.Hosts["n1"].Changed != 2 {
		t.Fatalf("tallies = %+v", out.Hosts)
	}
	if slices.Contains(s.fleet.commands(), "n3: echo b") {
		t.Error("an unreachable host must drop out even with on_failure = continue")
	}
}

func TestRetriesUntil(t *testing.T) {
	s := newRun(t, `
step "cmd" "a" {
  retries = 5
  delay   = "0s"
  until   = self.rc == 0
  command = "succeed-after 3"
}`, []string{"n1"}, ModeApply)
	out, _ := s.r.Run(context.Background())
	if out.Failed {
		t.Fatalf("outcome = %+v", out)
	}
	if n := len(s.fleet.commands()); n != 3 {
		t.Errorf("ran %d times, want 3", n)
	}
	retries := 0
	for _, e := range s.ev.all() {
		if _, ok := e.(event.Retry); ok {
			retries++
		}
	}
	if retries != 2 {
		t.Errorf("%d retry events, want 2", retries)
	}
}

func TestRetriesExhausted(t *testing.T) {
	s := newRun(t, `
step "cmd" "a" {
  retries = 1
  delay   = "0s"
  command = "succeed-after 5"
}`, []string{"n1"}, ModeApply)
	out, _ := s.r.Run(context.Background())
	if !out.Failed || len(s.fleet.commands()) != 2 {
		t.Fatalf("want failure after 2 attempts; got %+v, %v", out, s.fleet.commands())
	}
}

func TestTimeout(t *testing.T) {
	s := newRun(t, `
step "cmd" "a" {
  timeout = "20ms"
  command = "block"
}`, []string{"n1"}, ModeApply)
	out, _ := s.r.Run(context.Background())
	hf := s.ev.finished()["cmd.a@n1"]
	if !out.Failed || hf.Status != event.Failed || !strings.Contains(hf.Message, "timed out after 20ms") {
		t.Fatalf("finished = %+v", hf)
	}
}

// A step without a timeout of its own is bounded by the run-wide one, and
// the message names the host that hung and the setting; the step's own
// timeout wins over the run-wide one.
func TestRunWideStepTimeout(t *testing.T) {
	s := newRun(t, `
step "cmd" "hangs" {
  command = "block"
  on_failure = "continue"
}
step "cmd" "own" {
  timeout = "30ms"
  command = "block"
}`, []string{"n1"}, ModeApply)
	s.r.opts.StepTimeout, s.r.opts.StepTimeoutFrom = 20*time.Millisecond, "--step-timeout"
	out, _ := s.r.Run(context.Background())
	hf := s.ev.finished()["cmd.hangs@n1"]
	want := "timed out after 20ms (--step-timeout): n1 did not answer in time; the host or its command hung"
	if !out.Failed || hf.Status != event.Failed || hf.Message != want {
		t.Fatalf("hangs = %+v, want message %q", hf, want)
	}
	if own := s.ev.finished()["cmd.own@n1"]; !strings.HasPrefix(own.Message, "timed out after 30ms (the step's timeout): n1") {
		t.Errorf("own = %+v", own)
	}
}

func TestChangedWhenFailedWhen(t *testing.T) {
	s := newRun(t, `
step "cmd" "a" {
  changed_when = false
  command      = "echo x"
}
step "cmd" "b" {
  failed_when = self.rc == 0 && length(self.lines) > 0
  command     = "echo y"
}
step "cmd" "c" {
  failed_when = false
  command     = "fail-on n1"
}`, []string{"n1"}, ModeApply)
	s.r.Run(context.Background())
	f := s.ev.finished()
	if f["cmd.a@n1"].Status != event.OK {
		t.Errorf("changed_when = false: status %s", f["cmd.a@n1"].Status)
	}
	if f["cmd.b@n1"].Status != event.Failed {
		t.Errorf("failed_when = true: status %s", f["cmd.b@n1"].Status)
	}
	if _, ran := f["cmd.c@n1"]; ran {
		t.Error("a host failed by failed_when must drop out")
	}
}

func TestSerialBatches(t *testing.T) {
	s := newRun(t, `
step "cmd" "a" {
  serial  = 2
  command = "echo x"
}`, []string{"n1", "n2", "n3", "n4", "n5"}, ModeApply)
	s.r.Run(context.Background())
	var batches [][]string
	for _, e := range s.ev.all() {
		if st, ok := e.(event.StepStarted); ok {
			batches = append(batches, st.Hosts)
		}
	}
	if len(batches) != 3 || len(batches[0]) != 2 || len(batches[2]) != 1 {
		t.Fatalf("batches = %v", batches)
	}
}

func TestCancelMidRun(t *testing.T) {
	s := newRun(t, `
step "cmd" "a" { command = "echo a" }
step "cmd" "b" { command = "block" }
step "cmd" "c" { command = "echo c" }
`, three, ModeApply)
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		<-s.fleet.started
		cancel()
	}()
	out, _ := s.r.Run(ctx)
	if !out.Interrupted {
		t.Fatal("run not marked interrupted")
	}
	var ab event.Aborted
	for _, e := range s.ev.all() {
		if a, ok := e.(event.Aborted); ok {
			ab = a
		}
	}
	if ab.Reason != "interrupted" || !slices.Equal(ab.HalfDone, []string{"cmd.b"}) {
		t.Errorf("aborted = %+v", ab)
	}
	for _, c := range s.fleet.commands() {
		if strings.Contains(c, "echo c") {
			t.Errorf("step c ran after the interrupt: %q", c)
		}
	}
}

func TestPlanIsReadOnlyAndPropagatesUnknown(t *testing.T) {
	s := newRun(t, `
step "cmd" "a" {
  command = "echo a"
  check   = "whoami"
}
step "cmd" "b" { command = "echo x" }
step "cmd" "c" { command = "echo ${step.b.lines[0]}" }
step "cmd" "d" {
  depends_on = [step.b]
  command    = "echo d"
}
step "cmd" "e" {
  when    = step.a.rc == 0
  command = "echo e"
}`, []string{"n1"}, ModePlan)
	out, _ := s.r.Run(context.Background())
	got := map[string]event.PlanAction{}
	for _, p := range out.Planned {
		got[p.Step] = p.Action
	}
	want := map[string]event.PlanAction{"cmd.a": event.PlanNoChange, "cmd.b": event.PlanChange, "cmd.c": event.PlanUnknown,
		"cmd.d": event.PlanUnknown, "cmd.e": event.PlanUnknown}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s: planned %q, want %q", k, got[k], v)
		}
	}
	if cmds := s.fleet.commands(); !slices.Equal(cmds, []string{"n1: whoami"}) {
		t.Errorf("plan ran %v; only the read-only check may run", cmds)
	}
	if out.Changes != 1 {
		t.Errorf("changes = %d", out.Changes)
	}
}

func TestSavedPlanDrift(t *testing.T) {
	src := `
step "cmd" "a" {
  command = "echo a"
  check   = "fail-on n1"
}`
	p := newRun(t, src, []string{"n1", "n2"}, ModePlan)
	out, _ := p.r.Run(context.Background())
	// Replaying the same plan is accepted.
	a := newRun(t, src, []string{"n1", "n2"}, ModeApply)
	a.r.opts.Expect = out.Planned
	if _, err := a.r.Run(context.Background()); err != nil {
		t.Fatalf("matching plan refused: %v", err)
	}
	// A host whose state changed is drift: n2 now needs a change.
	stale := append([]event.PlannedHost(nil), out.Planned...)
	for i := range stale {
		if stale[i].Host == "n1" {
			stale[i].Action = "no change"
			stale[i].Changes = nil
		}
	}
	d := newRun(t, src, []string{"n1", "n2"}, ModeApply)
	d.r.opts.Expect = stale
	_, err := d.r.Run(context.Background())
	var de *DriftError
	if err == nil || !asDrift(err, &de) || len(de.Drifted) != 1 || !strings.Contains(de.Drifted[0], "cmd.a on n1") {
		t.Fatalf("err = %v", err)
	}
	for _, c := range d.fleet.commands() {
		if strings.Contains(c, "echo a") {
			t.Errorf("a refused plan applied %q", c)
		}
	}
}

func TestInventoryHostLookup(t *testing.T) {
	s := newRun(t, `
step "cmd" "peer" { command = "echo ${inventory.host["n2"].name}-${length(inventory.hosts)}" }
`, []string{"n1", "n2"}, ModeApply)
	s.r.Run(context.Background())
	if !slices.Contains(s.fleet.commands(), "n1: echo n2-2") {
		t.Fatalf("commands = %v", s.fleet.commands())
	}
}

func TestFailedWhenDecidesAfterUntilRunsOut(t *testing.T) {
	s := newRun(t, `
step "cmd" "probe" {
  retries     = 1
  delay       = "0s"
  until       = self.rc == 0
  failed_when = false
  command     = "succeed-after 9"
}
step "cmd" "next" { command = "echo next" }
`, []string{"n1"}, ModeApply)
	s.r.Run(context.Background())
	hf := s.ev.finished()["cmd.probe@n1"]
	if hf.Status == event.Failed || !hf.GaveUp || !strings.Contains(hf.Message, "gave up waiting: until still false after 2 attempts") {
		t.Fatalf("probe = %+v; failed_when = false must keep it from failing, and it gave up waiting", hf)
	}
	if !slices.Contains(s.fleet.commands(), "n1: echo next") {
		t.Error("the host must go on")
	}
}

// retries = 0 means no retry, also with until; unset retries with until
// means DefaultUntilRetries; without until, unset means none.
func TestRetriesZeroMeansNoRetry(t *testing.T) {
	for _, c := range []struct {
		name, meta string
		attempts   int
	}{
		{"retries = 0 with until", "retries = 0\n  until = self.rc == 0", 1},
		{"until without retries", "until = self.rc == 0", 1 + program.DefaultUntilRetries},
		{"retries = 2 with until", "retries = 2\n  until = self.rc == 0", 3},
		{"retries = 0 with until, failed_when", "retries = 0\n  until = self.rc == 0\n  failed_when = false", 1},
		{"until, failed_when, no retries", "until = self.rc == 0\n  failed_when = false", 1 + program.DefaultUntilRetries},
		{"retries = 0 on a failing command", "retries = 0", 1},
		{"no retries, no until", "", 1},
		{"retries = 1 on a failing command", "retries = 1", 2},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := newRun(t, `
step "cmd" "probe" {
  delay   = "0s"
  command = "succeed-after 99"
  `+c.meta+`
}
`, []string{"n1"}, ModeApply)
			s.r.Run(context.Background())
			n := 0
			for _, cmd := range s.fleet.commands() {
				if cmd == "n1: succeed-after 99" {
					n++
				}
			}
			if n != c.attempts {
				t.Errorf("%d attempts, want %d", n, c.attempts)
			}
			// A command that fails is retried as failed; with failed_when =
			// false it is not, and until decides: it gave up waiting, and
			// the status stays what failed_when made it.
			hf := s.ev.finished()["cmd.probe@n1"]
			waits := strings.Contains(c.meta, "failed_when")
			if failed := hf.Status == event.Failed; failed == waits {
				t.Errorf("status %s", hf.Status)
			}
			if hf.GaveUp != waits || waits && !strings.HasPrefix(hf.Message, "gave up waiting: until still false after") {
				t.Errorf("GaveUp = %v, message %q; want GaveUp %v", hf.GaveUp, hf.Message, waits)
			}
		})
	}
}

func TestTagsSelectSteps(t *testing.T) {
	src := `
step "cmd" "a" {
  tags    = ["config"]
  command = "echo a"
}
step "cmd" "b" {
  tags    = ["verify"]
  command = "echo b"
}
step "cmd" "c" { command = "echo c" }
`
	s := newRun(t, src, []string{"n1"}, ModeApply)
	s.r.opts.Tags = []string{"verify"}
	s.r.Run(context.Background())
	if got := s.fleet.commands(); !slices.Equal(got, []string{"n1: echo b"}) {
		t.Errorf("--tags verify ran %v", got)
	}
	s = newRun(t, src, []string{"n1"}, ModeApply)
	s.r.opts.SkipTags = []string{"config"}
	s.r.Run(context.Background())
	if got := s.fleet.commands(); !slices.Equal(got, []string{"n1: echo b", "n1: echo c"}) {
		t.Errorf("--skip-tags config ran %v", got)
	}
}

func TestBecomeWrapsTheHost(t *testing.T) {
	s := newRun(t, `
step "cmd" "root" {
  become  = "gpfsadm"
  command = "whoami"
}
step "cmd" "plain" { command = "whoami" }
`, []string{"n1"}, ModeApply)
	var users []string
	s.r.opts.Become = func(h module.Host, user string) module.Host {
		users = append(users, user)
		return h
	}
	s.r.Run(context.Background())
	if !slices.Equal(users, []string{"gpfsadm"}) {
		t.Errorf("become wrapped %v; only the become step, as gpfsadm", users)
	}
}

func TestDependsOnOrdersAcrossTheFile(t *testing.T) {
	s := newRun(t, `
step "cmd" "second" {
  depends_on = [step.first]
  command    = "echo second"
}
step "cmd" "first" { command = "echo first" }
`, []string{"n1"}, ModeApply)
	s.r.Run(context.Background())
	if got := s.fleet.commands(); !slices.Equal(got, []string{"n1: echo first", "n1: echo second"}) {
		t.Errorf("order %v", got)
	}
}
