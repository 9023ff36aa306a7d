package runbooks_test

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/provadev/prova/engine/transport/sshconn"
	"github.com/provadev/prova/internal/cli"
	"github.com/provadev/prova/internal/clusterlock"
	"github.com/provadev/prova/internal/evidence/record"
	"github.com/provadev/prova/inventory"
	"github.com/provadev/prova/lab"
	"github.com/provadev/prova/lab/labtest"
)

// provaCLI runs the CLI in-process and returns its exit status and output.
func provaCLI(t *testing.T, args ...string) (int, string) {
	t.Helper()
	var out, errb bytes.Buffer
	rc := cli.Main(append(args, "--color", "never"), strings.NewReader(""), &out, &errb)
	return rc, out.String() + errb.String()
}

// labLock is the lab's cluster lock, as apply would take it (gpfs01, the
// lab inventory's prova_lock_path), seen from this test.
func labLock(t *testing.T, l *lab.Lab, host string) *clusterlock.Lock {
	t.Helper()
	inv, diags := inventory.Load(l.InventoryPath())
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	ih, _ := inv.Host(host)
	pool := sshconn.NewPool(sshconn.Options{SSHConfigFile: "none", Home: t.TempDir()})
	t.Cleanup(func() { pool.Close() })
	path := inv.Hosts[0].Vars["prova_lock_path"].AsString()
	return &clusterlock.Lock{Host: pool.Host(sshconn.TargetFor(ih)), Path: path,
		Me: clusterlock.Holder{User: "test@controller", RunID: "test"}}
}

// waitHeld polls the lock's status until it is held, bounded by a deadline.
func waitHeld(t *testing.T, lk *clusterlock.Lock, out *bytes.Buffer) clusterlock.Status {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		st, err := lk.Status(context.Background())
		if err == nil && st.Held {
			return st
		}
		if time.Now().After(deadline) {
			t.Fatalf("the first apply never took the lock (%v):\n%s", err, out.String())
		}
		time.Sleep(100 * time.Millisecond) // polling the lab, bounded by the deadline
	}
}

// Two admins at once: while one apply holds the cluster lock, a second
// apply of gpfs-verbs-rdma.hcl is refused before any change (the lab audit
// shows no mmchconfig, mmshutdown or mmstartup), naming the holder. When
// the holder is killed with SIGKILL, sshd (here the lab) ends its session
// and the lock is free again within the keepalive interval; the second
// admin's apply then goes through. lock status and lock break work on the
// lab.
func TestLabClusterLockTwoAdmins(t *testing.T) {
	l := labtest.Start(t, 0, scenario(t, "gpfs-healthy.hcl"))
	inv := l.InventoryPath()
	work := t.TempDir()
	runs := filepath.Join(work, "runs")
	hold := filepath.Join(work, "hold.hcl")
	os.WriteFile(hold, []byte(`
step "shell" "maintenance" {
  hosts    = "gpfs04"
  command  = "sleep 300"
}
`), 0o644)
	// Admin A: a real prova process, holding the lock while its step runs.
	a := exec.Command(labtest.Binary(t), "apply", hold, "-i", inv, "--record-dir", runs, "--ssh-config", "none", "--color", "never")
	a.Dir = work
	var aout bytes.Buffer
	a.Stdout, a.Stderr = &aout, &aout
	if err := a.Start(); err != nil {
		t.Fatal(err)
	}
	defer a.Process.Kill()
	lk := labLock(t, l, "gpfs01")
	st := waitHeld(t, lk, &aout)
	if !strings.HasSuffix(st.Holder.Runbook, "hold.hcl") || st.Holder.RunID == "" || !strings.Contains(st.Holder.User, "@") {
		t.Fatalf("holder %+v", st.Holder)
	}
	rc, out := provaCLI(t, "lock", "status", "-i", inv, "--ssh-config", "none")
	if rc != 0 || !strings.Contains(out, "HELD by "+st.Holder.User+", run "+st.Holder.RunID) {
		t.Fatalf("lock status: %d\n%s", rc, out)
	}

	// Admin B is refused before any change.
	common := []string{"-i", inv, "--record-dir", runs, "--ssh-config", "none", "--var", `verbs_ports=["mlx5_0/1"]`, "--var", "restart_poll=200ms"}
	before := audit(t, l)
	rc, out = provaCLI(t, append([]string{"apply", "gpfs-verbs-rdma.hcl"}, common...)...)
	if rc != 1 || !strings.Contains(out, "another prova run holds the cluster lock gpfs01:/var/adm/ras/prova-cluster.lock: "+st.Holder.User+", run "+st.Holder.RunID) {
		t.Fatalf("second apply: exit %d\n%s", rc, out)
	}
	for _, w := range writes {
		if n, m := len(commands(before, w)), len(commands(audit(t, l), w)); n != m {
			t.Errorf("the refused apply ran %s: %q", w, commands(audit(t, l), w))
		}
	}

	// Admin A's laptop dies: the lock is free again within the keepalive
	// interval (the lab's session ends with the TCP connection).
	a.Process.Signal(syscall.SIGKILL)
	a.Wait()
	lk.Wait = sshconn.DefaultServerAliveInterval
	h, err := lk.Acquire(context.Background())
	if err != nil {
		t.Fatalf("the lock is still held %s after its holder was killed: %v", sshconn.DefaultServerAliveInterval, err)
	}
	h.Release()

	rc, out = provaCLI(t, append([]string{"apply", "gpfs-verbs-rdma.hcl"}, common...)...)
	if rc != 0 || !strings.Contains(out, "Cluster lock: held on gpfs01:/var/adm/ras/prova-cluster.lock") {
		t.Fatalf("apply after the holder died: exit %d\n%s", rc, out)
	}
	if len(commands(audit(t, l), "mmchconfig")) != 1 {
		t.Errorf("mmchconfig: %q", commands(audit(t, l), "mmchconfig"))
	}

	// lock break: another holder, broken with --yes; the log names who.
	h, err = lk.Acquire(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	rc, out = provaCLI(t, "lock", "break", "-i", inv, "--ssh-config", "none", "--yes")
	if rc != 0 || !strings.Contains(out, "broken by ") {
		t.Fatalf("lock break: %d\n%s", rc, out)
	}
	if h.Err() == nil {
		// the broken holder learns it lost the lock (its session ended)
		deadline := time.Now().Add(10 * time.Second)
		for h.Err() == nil && time.Now().Before(deadline) {
			time.Sleep(50 * time.Millisecond) // bounded wait for the session end
		}
		if h.Err() == nil {
			t.Error("the broken holder did not notice")
		}
	}
	h.Release()
	rc, out = provaCLI(t, "lock", "status", "-i", inv, "--ssh-config", "none")
	if rc != 0 || !strings.Contains(out, ": free") || !strings.Contains(out, "broken by ") {
		t.Fatalf("lock status after break: %d\n%s", rc, out)
	}
}

// The lock host cannot be reached: apply refuses rather than running
// unlocked; --allow-unlocked runs, and says so in the run record.
func TestLabClusterLockHostUnreachable(t *testing.T) {
	if testing.Short() {
		t.Skip("lab test")
	}
	l := labtest.Start(t, 6, "../examples/lab/faults-ssh.hcl")
	work := t.TempDir()
	runs := filepath.Join(work, "runs")
	rb := filepath.Join(work, "rb.hcl")
	os.WriteFile(rb, []byte(`
step "shell" "change" {
  hosts   = "gpfs01"
  command = "touch /root/changed"
}
`), 0o644)
	args := []string{"apply", rb, "-i", l.InventoryPath(), "--record-dir", runs, "--ssh-config", "none", "--lock-host", "gpfs02"}
	rc, out := provaCLI(t, args...)
	if rc != 1 || !strings.Contains(out, "cluster lock host gpfs02") || !strings.Contains(out, "nothing was changed (--allow-unlocked applies without the lock)") {
		t.Fatalf("apply with the lock host down: exit %d\n%s", rc, out)
	}
	if got := commands(audit(t, l), "touch /root/changed"); len(got) != 0 {
		t.Fatalf("the change ran unlocked: %q", got)
	}
	runs2 := filepath.Join(work, "runs2")
	rc, out = provaCLI(t, append(args, "--allow-unlocked", "--record-dir", runs2)...)
	if rc != 0 || !strings.Contains(out, "applying WITHOUT the cluster lock (--allow-unlocked)") {
		t.Fatalf("apply --allow-unlocked: exit %d\n%s", rc, out)
	}
	dir, err := record.Latest(runs2)
	if err != nil {
		t.Fatal(err)
	}
	rec, err := record.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, w := range rec.Warnings {
		found = found || strings.Contains(w.Message, "WITHOUT the cluster lock")
	}
	if !found {
		t.Errorf("the run record does not say the run was unlocked: %+v", rec.Warnings)
	}
}
