package runbooks_test

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/provadev/prova/engine/apply"
	"github.com/provadev/prova/engine/event"
	"github.com/provadev/prova/lab"
	"github.com/provadev/prova/lab/labtest"
	"github.com/provadev/prova/runbooks/runbooktest"
)

// prova runs the prova binary against the lab l from dir and returns its
// exit status, stdout and stderr.
func prova(t *testing.T, l *lab.Lab, dir string, args ...string) (int, string, string) {
	t.Helper()
	full := append(args, "-i", l.InventoryPath(), "--ssh-config", "none", "--color", "never")
	cmd := exec.Command(labtest.Binary(t), full...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "HOME="+t.TempDir(), "NO_COLOR=1")
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		return ee.ExitCode(), out.String(), errb.String()
	case err != nil:
		t.Fatalf("prova %v: %v", args, err)
	}
	return 0, out.String(), errb.String()
}

func varFlags(vars []string) []string {
	var out []string
	for _, v := range vars {
		out = append(out, "--var", v)
	}
	return out
}

// copyRunbooks copies the shipped runbooks (with lib/) to a temporary
// directory, so that a test can break one.
func copyRunbooks(t *testing.T) string {
	t.Helper()
	dst := t.TempDir()
	for _, dir := range []string{".", "lib"} {
		if err := os.MkdirAll(filepath.Join(dst, dir), 0o755); err != nil {
			t.Fatal(err)
		}
		files, _ := filepath.Glob(filepath.Join(dir, "*.hcl"))
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dst, f), b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	return dst
}

func auditLen(t *testing.T, l *lab.Lab) int {
	t.Helper()
	n := 0
	for _, es := range audit(t, l) {
		n += len(es)
	}
	return n
}

// A typo in a step near the end of an included file stops plan, apply and
// apply of a saved plan before a single SSH connection: the lab's audit
// logs stay empty.
func TestLabValidatesBeforeRunning(t *testing.T) {
	l := labtest.Start(t, 0, scenario(t, "gpfs-healthy.hcl"))
	dir := copyRunbooks(t)
	lib := filepath.Join(dir, "lib", "gpfs-verify.hcl")
	b, _ := os.ReadFile(lib)
	broken := strings.Replace(string(b), "step.conn.missing", "step.conn.mising", 1)
	if broken == string(b) {
		t.Fatal("lib/gpfs-verify.hcl no longer has step.conn.missing")
	}
	os.WriteFile(lib, []byte(broken), 0o644)
	rb := filepath.Join(dir, rdmaRunbook)
	for _, cmd := range [][]string{{"plan", rb}, {"apply", rb}} {
		rc, _, stderr := prova(t, l, dir, append(cmd, varFlags(fast)...)...)
		if rc != 1 || !strings.Contains(stderr, "mising") || !strings.Contains(stderr, "gpfs-verify.hcl") {
			t.Errorf("%s: exit %d, stderr:\n%s", cmd[0], rc, stderr)
		}
	}
	if n := auditLen(t, l); n != 0 {
		t.Errorf("the lab received %d commands from an invalid runbook", n)
	}
}

// On a node without OFED, plan runs the read-only preflight for real: it
// names gpfs04 and the missing OFED, exits 1, and runs only reads.
func TestLabPlanNamesTheFault(t *testing.T) {
	l := labtest.Start(t, 0, scenario(t, "gpfs-no-ofed.hcl"))
	rc, stdout, stderr := prova(t, l, t.TempDir(), append([]string{"plan", mustAbs(t, rdmaRunbook)}, varFlags(fast)...)...)
	if rc != 1 {
		t.Errorf("plan exit %d, want 1\n%s%s", rc, stdout, stderr)
	}
	found := false
	for _, line := range strings.Split(stdout, "\n") {
		if strings.Contains(line, "gpfs04") && strings.Contains(line, "would fail") && strings.Contains(line, "OFED") {
			found = true
		}
	}
	if !found || !strings.Contains(stdout, "would fail") {
		t.Errorf("plan does not name gpfs04 and OFED:\n%s", stdout)
	}
	for node, es := range audit(t, l) {
		for _, e := range es {
			if e.Changed == lab.ChangedYes || len(e.StateWrites) > 0 {
				t.Errorf("plan ran %q on %s (changed %s, writes %v)", e.Command, node, e.Changed, e.StateWrites)
			}
		}
	}
	if !strings.Contains(stdout, "ofed_info") && len(commands(audit(t, l), "ofed_info")) == 0 {
		t.Error("plan did not run the OFED probe")
	}
}

// After apply on a healthy cluster, plan has nothing to change and nothing
// that would fail: exit 0 with --detailed-exitcode.
func TestLabPlanAfterApplyIsClean(t *testing.T) {
	l := labtest.Start(t, 0, scenario(t, "gpfs-healthy.hcl"))
	dir := t.TempDir()
	rb := mustAbs(t, rdmaRunbook)
	if rc, stdout, stderr := prova(t, l, dir, append([]string{"apply", rb}, varFlags(fast)...)...); rc != 0 {
		t.Fatalf("apply exit %d\n%s%s", rc, stdout, stderr)
	}
	rc, stdout, stderr := prova(t, l, dir, append([]string{"plan", rb, "--detailed-exitcode"}, varFlags(fast)...)...)
	if rc != 0 {
		t.Errorf("plan after apply: exit %d, want 0\n%s%s", rc, stdout, stderr)
	}
	if !strings.Contains(stdout, "No changes.") {
		t.Errorf("plan after apply:\n%s", stdout)
	}
}

// In the NVMe-oF runbook connect is a change, so everything measured over
// the connection stays known after apply, and no benchmark runs in plan.
func TestNVMeoFPlanKeepsBenchmarksUnknown(t *testing.T) {
	l := labtest.Start(t, 0, nvmeofScenario(t, "nvmeof-healthy.hcl"))
	r := runbooktest.Run(t, l, nvmeofRunbook, nvmeofOptions(apply.ModePlan, "initiator=host01"))
	actions := map[string]event.PlanAction{}
	for _, e := range r.Events {
		if p, ok := e.(event.PlannedHost); ok && p.Host == "host01" {
			actions[p.Step] = p.Action
		}
	}
	for step, want := range map[string]event.PlanAction{
		"nvme_connect.connect_rdma": event.PlanChange,
		"bench_block.lat_rdma":      event.PlanUnknown,
		"bench_block.seq_rdma":      event.PlanUnknown,
	} {
		if actions[step] != want {
			t.Errorf("%s planned %q, want %q (all: %v)", step, actions[step], want, actions)
		}
	}
	if got := nvmeAudit(t, l, "host01", "elbencho"); len(got) != 0 {
		t.Errorf("plan ran a benchmark: %v", got)
	}
}

// A write benchmark on a raw block device is refused unless the step says
// destructive = true and the command line says --allow-destructive.
func TestLabDestructiveInterlock(t *testing.T) {
	l := labtest.Start(t, 0, nvmeofScenario(t, "nvmeof-healthy.hcl"))
	dir := t.TempDir()
	write := func(name, extra string) string {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte(`
step "nvme_connect" "connect" {
  hosts     = "host01"
  transport = "rdma"
  address   = "10.10.0.100"
  port      = 4420
  nqn       = "nqn.2024-01.dev.prova:lab-target1"
}
step "bench_block" "wipe" {
  hosts      = "host01"
  depends_on = [step.connect]
  tool       = "fio"
  path       = "/dev/nvme1n1"
  mode       = "write"
  runtime    = "2s"
  `+extra+`
}
`), 0o644)
		return p
	}
	fio := func() int { return len(nvmeAudit(t, l, "host01", "fio")) }

	// Not marked: refused by validation, before any connection.
	rc, _, stderr := prova(t, l, dir, "apply", write("unmarked.hcl", ""), "--allow-destructive")
	if rc != 1 || !strings.Contains(stderr, "Destructive step not marked destructive") || auditLen(t, l) != 0 {
		t.Fatalf("unmarked: exit %d, %d commands reached the lab\n%s", rc, auditLen(t, l), stderr)
	}
	marked := write("marked.hcl", "destructive = true")
	// Marked, but not allowed on the command line: plan says it would fail
	// and shows it as destructive; apply refuses it and fio never runs.
	rc, stdout, _ := prova(t, l, dir, "plan", marked)
	if rc != 1 || !strings.Contains(stdout, "DESTRUCTIVE") || !strings.Contains(stdout, "refused") {
		t.Errorf("plan without --allow-destructive: exit %d\n%s", rc, stdout)
	}
	rc, stdout, _ = prova(t, l, dir, "apply", marked)
	if rc != 1 || !strings.Contains(stdout, "--allow-destructive") || fio() != 0 {
		t.Errorf("apply without --allow-destructive: exit %d, fio ran %d times\n%s", rc, fio(), stdout)
	}
	// Allowed for another host only: still refused.
	if rc, stdout, _ = prova(t, l, dir, "apply", marked, "--allow-destructive=host02"); rc != 1 || fio() != 0 {
		t.Errorf("apply --allow-destructive=host02: exit %d, fio ran %d times\n%s", rc, fio(), stdout)
	}
	// Both: it runs.
	if rc, stdout, stderr = prova(t, l, dir, "apply", marked, "--allow-destructive=host01"); rc != 0 || fio() == 0 {
		t.Errorf("apply --allow-destructive=host01: exit %d, fio ran %d times\n%s%s", rc, fio(), stdout, stderr)
	}
}

func mustAbs(t *testing.T, p string) string {
	t.Helper()
	a, err := filepath.Abs(p)
	if err != nil {
		t.Fatal(err)
	}
	return a
}
