package main

import (
	"bytes"
	"encoding/json"
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

	"github.com/provadev/prova/internal/testkit/sshtest"
	"github.com/provadev/prova/lab/labtest"
)

// Ctrl-C during apply: the remote command is ended (not just the local
// wait), the run record is written and names the half-done step, and prova
// exits 130.
func TestInterruptCancelsRemoteAndRecords(t *testing.T) {
	bin := labtest.Binary(t)
	work := t.TempDir()
	srv := sshtest.NewServer(t, sshtest.ShellHandler)
	srv2 := sshtest.NewServer(t, sshtest.ShellHandler)
	srv2.AuthorizeKey(srv.ClientKey.PublicKey())
	kh := filepath.Join(work, "known_hosts")
	os.WriteFile(kh, []byte(srv.KnownHostsLine()+"\n"+srv2.KnownHostsLine()+"\n"), 0o600)
	inv := fmt.Sprintf(`defaults {
  user          = "root"
  identity_file = %q
  known_hosts   = "known_hosts"
}
host "a" {
  address = "127.0.0.1"
  port    = %d
}
host "b" {
  address = "127.0.0.1"
  port    = %d
}
`, srv.ClientKeyFile, srv.Port, srv2.Port)
	os.WriteFile(filepath.Join(work, "inv.hcl"), []byte(inv), 0o644)
	rb := `
variable "work" { type = string }
step "shell" "first" {
  command = "true"
}
step "shell" "long" {
  command = "echo $$ > ${var.work}/pid-${host.name}; exec sleep 300"
}
step "shell" "after" {
  command = "touch ${var.work}/after-${host.name}"
}
`
	os.WriteFile(filepath.Join(work, "rb.hcl"), []byte(rb), 0o644)

	cmd := exec.Command(bin, "apply", "rb.hcl", "-i", "inv.hcl", "--var", "work="+work, "--color", "never", "--ssh-config", "none")
	cmd.Dir = work
	cmd.Env = append(os.Environ(), "HOME="+work, "SSH_AUTH_SOCK=", "PROVA_LOCK_PATH="+filepath.Join(work, "cluster.lock"))
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// Wait until both remote commands run, then press Ctrl-C.
	pids := map[string]int{}
	deadline := time.Now().Add(30 * time.Second)
	for len(pids) < 2 {
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatalf("remote commands never started:\n%s", out.String())
		}
		for _, h := range []string{"a", "b"} {
			if b, err := os.ReadFile(filepath.Join(work, "pid-"+h)); err == nil {
				if pid, err := strconv.Atoi(strings.TrimSpace(string(b))); err == nil {
					pids[h] = pid
				}
			}
		}
		time.Sleep(20 * time.Millisecond) // polling for a file, bounded by the deadline
	}
	cmd.Process.Signal(os.Interrupt)
	err := cmd.Wait()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 130 {
		t.Fatalf("exit = %v, want 130\n%s", err, out.String())
	}
	for h, pid := range pids {
		// The server ends the command when the session is signalled and
		// closed; allow it a moment after prova has exited.
		gone := time.Now().Add(10 * time.Second)
		for syscall.Kill(pid, 0) == nil && time.Now().Before(gone) {
			time.Sleep(20 * time.Millisecond)
		}
		if syscall.Kill(pid, 0) == nil {
			syscall.Kill(pid, syscall.SIGKILL)
			t.Errorf("the remote command on %s (pid %d) outlived the interrupt", h, pid)
		}
		if _, err := os.Stat(filepath.Join(work, "after-"+h)); err == nil {
			t.Errorf("a step after the interrupt ran on %s", h)
		}
	}
	if !strings.Contains(out.String(), "shell.long") {
		t.Errorf("the console must name the half-done step:\n%s", out.String())
	}
	runs, _ := filepath.Glob(filepath.Join(work, ".prova", "runs", "*", "run.json"))
	if len(runs) != 1 {
		t.Fatalf("run records: %v", runs)
	}
	var rec struct {
		Status  string `json:"status"`
		Aborted struct {
			HalfDone []string `json:"half_done"`
		} `json:"aborted"`
	}
	b, _ := os.ReadFile(runs[0])
	if err := json.Unmarshal(b, &rec); err != nil || rec.Status != "interrupted" || len(rec.Aborted.HalfDone) == 0 || rec.Aborted.HalfDone[0] != "shell.long" {
		t.Errorf("run record: %+v (%v)\n%s", rec, err, b)
	}
}
