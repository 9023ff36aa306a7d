package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/provadev/prova/internal/cli"
	"github.com/provadev/prova/internal/testkit/sshdtest"
	"github.com/provadev/prova/lab/labtest"
)

// realSSHD starts n OpenSSH sshd instances that log every command they
// receive to log (prefixed with the instance's port), and writes an
// inventory with hosts n1..nN and a known_hosts into dir.
func realSSHD(t *testing.T, n int, dir string) (*sshdtest.Cluster, string) {
	t.Helper()
	log := filepath.Join(dir, "commands.log")
	force := fmt.Sprintf(`ForceCommand /bin/sh -c 'printf "@@ %%s\n%%s\n" "${SSH_CONNECTION##* }" "$SSH_ORIGINAL_COMMAND" >> %s; exec /bin/sh -c "$SSH_ORIGINAL_COMMAND"'`, log)
	c := sshdtest.Start(t, n, sshdtest.Options{Extra: force + "\n"})
	kh := c.KnownHostsFile(t)
	b, _ := os.ReadFile(kh)
	os.WriteFile(filepath.Join(dir, "known_hosts"), b, 0o600)
	inv := fmt.Sprintf("defaults {\n  user = %q\n  identity_file = %q\n  known_hosts = \"known_hosts\"\n  connect_timeout = \"5s\"\n}\n", c.User, c.ClientKeyFile)
	for i := range n {
		inv += fmt.Sprintf("host \"n%d\" {\n  address = \"127.0.0.1\"\n  port = %d\n  groups = [%q]\n}\n", i+1, c.Port(i), []string{"first", "rest"}[min(i, 1)])
	}
	os.WriteFile(filepath.Join(dir, "inventory.hcl"), []byte(inv), 0o644)
	return c, log
}

func run(t *testing.T, dir string, args ...string) (int, string) {
	t.Helper()
	wd, _ := os.Getwd()
	if err := os.Chdir(dir); err != nil {
		t.Fatal(err)
	}
	defer os.Chdir(wd)
	var out bytes.Buffer
	rc := cli.Main(append(args, "--color", "never", "--ssh-config", "none"), strings.NewReader(""), &out, &out)
	return rc, out.String()
}

// commandsSince returns the commands the sshd instances received after
// offset bytes of the log.
func commandsSince(t *testing.T, log string, offset int) []string {
	b, _ := os.ReadFile(log)
	var cmds []string
	for _, rec := range strings.Split(string(b[offset:]), "@@ ")[1:] {
		_, cmd, _ := strings.Cut(rec, "\n")
		cmds = append(cmds, strings.TrimSpace(cmd))
	}
	return cmds
}

func logSize(log string) int {
	st, err := os.Stat(log)
	if err != nil {
		return 0
	}
	return int(st.Size())
}

// Against real OpenSSH sshd: a runbook using every meta-argument, plan
// sending no mutating command, a host with an unknown key, an unreachable
// host, a command outliving its timeout, and Ctrl-C mid-run.
func TestRealSSHD(t *testing.T) {
	dir := t.TempDir()
	c, log := realSSHD(t, 4, dir)
	// sshd runs commands on this machine: the cluster lock stays in dir.
	t.Setenv("PROVA_LOCK_PATH", filepath.Join(dir, "cluster.lock"))
	work := filepath.Join(dir, "work")
	os.Mkdir(work, 0o755)

	rb := `
variable "work" { type = string }

step "shell" "mark" {
  hosts   = "all:!n4"
  command = "touch ${var.work}/mark-${host.name}"
  creates = "${var.work}/mark-${host.name}"
  tags    = ["setup"]
}

step "shell" "once" {
  hosts      = "all:!n4"
  run_once   = true
  depends_on = [step.mark]
  command    = "echo once >> ${var.work}/once"
}

step "shell" "only_first" {
  hosts   = "all:!n4"
  when    = contains(host.groups, "first")
  command = "touch ${var.work}/first-${host.name}"
}

step "shell" "rolling" {
  hosts   = "all:!n4"
  serial  = 1
  command = "date +%s%N >> ${var.work}/rolling"
}

step "shell" "settle" {
  hosts   = "all:!n4"
  retries = 5
  delay   = "0s"
  until   = tonumber(trimspace(self.stdout)) >= 3
  command = "echo x >> ${var.work}/settle-${host.name}; wc -l < ${var.work}/settle-${host.name}"
  changed_when = false
}

step "shell" "may_fail" {
  hosts      = "all:!n4"
  on_failure = "continue"
  command    = "test ${host.name} != n2"
}

step "shell" "judged" {
  hosts       = "all:!n4"
  failed_when = self.rc != 0 && self.rc != 3
  command     = "exit 3"
}

step "shell" "quick" {
  hosts   = "all:!n4"
  timeout = "30s"
  become  = true
  command = "id -u > ${var.work}/uid-${host.name}"
}

step "assert" "soft" {
  hosts               = "all:!n4"
  severity            = "warn"
  max_fail_percentage = 100
  condition           = host.name != "n3"
  error_message       = "a warning on ${host.name}"
}

step "assert" "every_host_marked" {
  hosts         = "all:!n4"
  run_once      = true
  condition     = length(per_host.mark) == 3 && alltrue([for h, r in per_host.mark : !r.failed])
  error_message = "not every host ran mark"
}
`
	os.WriteFile(filepath.Join(dir, "rb.hcl"), []byte(rb), 0o644)
	vars := []string{"-i", "inventory.hcl", "--var", "work=" + work}

	// plan: only read-only probes reach the hosts.
	off := logSize(log)
	if rc, out := run(t, dir, append([]string{"plan", "rb.hcl"}, vars...)...); rc != 0 {
		t.Fatalf("plan: rc %d\n%s", rc, out)
	}
	for _, cmd := range commandsSince(t, log, off) {
		if strings.Contains(cmd, "touch") || strings.Contains(cmd, ">>") || strings.Contains(cmd, "id -u") {
			t.Errorf("plan sent a mutating command: %q", cmd)
		}
	}
	if m, _ := filepath.Glob(filepath.Join(work, "*")); len(m) > 0 {
		t.Fatalf("plan changed the hosts: %v", m)
	}

	// apply: every meta-argument, for real.
	// may_fail fails on n2 (the run's status is 1), yet n2 goes on.
	rc, out := run(t, dir, append([]string{"apply", "rb.hcl"}, vars...)...)
	// n2 fails once: its step line and its line in the Findings block.
	if rc != 1 || !strings.Contains(out, "n2  FAILED") || !strings.Contains(out, "FAILED  n2: command exited with rc 1") || strings.Count(out, "FAILED") != 2 {
		t.Fatalf("apply: rc %d\n%s", rc, out)
	}
	if _, err := os.Stat(filepath.Join(work, "uid-n2")); err != nil {
		t.Error("on_failure = continue: n2 must run the later steps")
	}
	read := func(name string) string { b, _ := os.ReadFile(filepath.Join(work, name)); return string(b) }
	if strings.Count(read("once"), "once") != 1 {
		t.Errorf("run_once ran %q", read("once"))
	}
	if _, err := os.Stat(filepath.Join(work, "first-n1")); err != nil {
		t.Error("when: n1 (group first) did not run")
	}
	if _, err := os.Stat(filepath.Join(work, "first-n2")); err == nil {
		t.Error("when: n2 ran a step whose when was false")
	}
	if n := strings.Count(read("rolling"), "\n"); n != 3 {
		t.Errorf("serial: %d runs", n)
	}
	if strings.Count(read("settle-n1"), "x") != 3 {
		t.Errorf("until/retries: %q", read("settle-n1"))
	}
	if strings.TrimSpace(read("uid-n1")) != "0" {
		t.Errorf("become: uid %q", read("uid-n1"))
	}
	// A warning is its line and a Findings line; its diagnostic is for -v.
	if !strings.Contains(out, "n3  warn: a warning on n3") || !strings.Contains(out, "warn  n3: a warning on n3") {
		t.Errorf("severity = warn must be reported:\n%s", out)
	}
	if _, err := os.Stat(filepath.Join(work, "mark-n4")); err == nil {
		t.Error("hosts pattern: n4 was excluded")
	}

	// A second apply changes nothing that has a guard.
	off = logSize(log)
	run(t, dir, append([]string{"apply", "rb.hcl", "--tags", "setup"}, vars...)...)
	for _, cmd := range commandsSince(t, log, off) {
		if strings.Contains(cmd, "touch") {
			t.Errorf("second apply re-ran a guarded command: %q", cmd)
		}
	}

	// A host whose key is not known is refused, naming it and the key.
	os.WriteFile(filepath.Join(dir, "stranger.hcl"), []byte(strings.Replace(
		mustRead(t, filepath.Join(dir, "inventory.hcl")), `known_hosts = "known_hosts"`, `known_hosts = "empty_known_hosts"`, 1)), 0o644)
	os.WriteFile(filepath.Join(dir, "empty_known_hosts"), nil, 0o600)
	os.WriteFile(filepath.Join(dir, "hello.hcl"), []byte(`step "shell" "hello" { command = "true" }`), 0o644)
	rc, out = run(t, dir, "apply", "hello.hcl", "-i", "stranger.hcl", "--limit", "n1")
	if rc != 1 || !strings.Contains(out, "n1") || !strings.Contains(out, "SHA256:") || !strings.Contains(out, "not in known_hosts") {
		t.Errorf("unknown key: rc %d\n%s", rc, out)
	}

	// A command that outlives its timeout fails that host only.
	os.WriteFile(filepath.Join(dir, "slow.hcl"), []byte(fmt.Sprintf(`
step "shell" "slow" {
  timeout = "1s"
  command = "${host.name == "n1" ? "echo $$ > %s/slowpid; exec sleep 60" : "true"}"
}`, work)), 0o644)
	rc, out = run(t, dir, "apply", "slow.hcl", "-i", "inventory.hcl")
	if rc != 1 || !strings.Contains(out, "timed out after 1s") || strings.Count(out, "FAILED") != 2 { // step line, Findings
		t.Errorf("timeout: rc %d\n%s", rc, out)
	}
	if pid, err := strconv.Atoi(strings.TrimSpace(read("slowpid"))); err == nil {
		waitGone(t, pid, "the timed-out command")
	}

	// An unreachable host drops out; the others complete.
	c.Stop(3)
	rc, out = run(t, dir, "apply", "hello.hcl", "-i", "inventory.hcl")
	// The three others share one recap line.
	if rc != 1 || !strings.Contains(out, "n4") || !strings.Contains(out, "UNREACHABLE") || !strings.Contains(out, "n[1-3] (3)  ok=") {
		t.Errorf("unreachable: rc %d\n%s", rc, out)
	}

	// Ctrl-C mid-run: the remote commands end, the record is written, 130.
	os.WriteFile(filepath.Join(dir, "long.hcl"), []byte(fmt.Sprintf(`
step "shell" "long" {
  hosts   = "all:!n4"
  command = "echo $$ > %s/longpid-${host.name}; exec sleep 300"
}`, work)), 0o644)
	cmd := exec.Command(labtest.Binary(t), "apply", "long.hcl", "-i", "inventory.hcl", "--color", "never", "--ssh-config", "none")
	cmd.Dir = dir
	var buf bytes.Buffer
	cmd.Stdout, cmd.Stderr = &buf, &buf
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var pids []int
	deadline := time.Now().Add(30 * time.Second)
	for len(pids) < 3 && time.Now().Before(deadline) {
		pids = pids[:0]
		for _, h := range []string{"n1", "n2", "n3"} {
			if pid, err := strconv.Atoi(strings.TrimSpace(read("longpid-" + h))); err == nil {
				pids = append(pids, pid)
			}
		}
		time.Sleep(20 * time.Millisecond) // polling for files, bounded by the deadline
	}
	cmd.Process.Signal(os.Interrupt)
	err := cmd.Wait()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 130 {
		t.Fatalf("Ctrl-C: exit %v\n%s", err, buf.String())
	}
	for _, pid := range pids {
		waitGone(t, pid, "an interrupted command")
	}
}

func mustRead(t *testing.T, p string) string {
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// waitGone fails unless process pid ends within a few seconds.
func waitGone(t *testing.T, pid int, what string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for syscall.Kill(pid, 0) == nil && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if syscall.Kill(pid, 0) == nil {
		syscall.Kill(pid, syscall.SIGKILL)
		t.Errorf("%s (pid %d) is still running on the host", what, pid)
	}
}
