package clusterlock

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/provadev/prova/engine/transport/local"
)

func newLock(t *testing.T, path, user string) *Lock {
	t.Helper()
	return &Lock{Host: local.New("lockhost"), Path: path, Wait: time.Second,
		Me: Holder{User: user, RunID: "run-" + user, Runbook: "runbooks/gpfs-verbs-rdma.hcl"}}
}

// TestSecondAcquireIsRefusedNamingTheHolder: one holder at a time; the
// refusal names who holds it and since when; after Release the lock is
// free again and the log records both.
func TestSecondAcquireIsRefusedNamingTheHolder(t *testing.T) {
	path := filepath.Join(t.TempDir(), "prova", "cluster.lock")
	ctx := context.Background()
	a, b := newLock(t, path, "alice@laptop1"), newLock(t, path, "bob@laptop2")
	ha, err := a.Acquire(ctx)
	if err != nil {
		t.Fatal(err)
	}
	_, err = b.Acquire(ctx)
	var he *HeldError
	if !errors.As(err, &he) || he.Holder.User != "alice@laptop1" || he.Holder.RunID != "run-alice@laptop1" || he.Holder.Since.IsZero() {
		t.Fatalf("second Acquire: %v (%#v)", err, he)
	}
	if !strings.Contains(err.Error(), "alice@laptop1, run run-alice@laptop1, runbook runbooks/gpfs-verbs-rdma.hcl, since 20") {
		t.Errorf("refusal %q", err)
	}
	st, err := b.Status(ctx)
	if err != nil || !st.Held || st.Holder.User != "alice@laptop1" || st.Holder.PID == "" {
		t.Fatalf("status while held: %+v, %v", st, err)
	}
	if err := ha.Release(); err != nil {
		t.Fatal(err)
	}
	if st, err := b.Status(ctx); err != nil || st.Held {
		t.Fatalf("status after release: %+v, %v", st, err)
	}
	hb, err := b.Acquire(ctx)
	if err != nil {
		t.Fatalf("Acquire after release: %v", err)
	}
	defer hb.Release()
	log, _ := os.ReadFile(path + ".log")
	for _, want := range []string{"acquired by alice@laptop1", "released by alice@laptop1", "acquired by bob@laptop2"} {
		if !strings.Contains(string(log), want) {
			t.Errorf("log lacks %q:\n%s", want, log)
		}
	}
}

// TestBreakFreesTheLockAndTheHolderNoticesIt: break kills the holding
// shell, logs who broke it, and the holder's Err reports the loss.
func TestBreakFreesTheLockAndTheHolderNoticesIt(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cluster.lock")
	ctx := context.Background()
	a, c := newLock(t, path, "alice@laptop1"), newLock(t, path, "carol@laptop3")
	ha, err := a.Acquire(ctx)
	if err != nil {
		t.Fatal(err)
	}
	broke, err := c.Break(ctx, c.Me)
	if err != nil || !broke {
		t.Fatalf("Break: %v, %v", broke, err)
	}
	<-ha.(*held).lost
	if ha.Err() == nil {
		t.Error("the holder did not notice it lost the lock")
	}
	if st, err := c.Status(ctx); err != nil || st.Held {
		t.Fatalf("status after break: %+v, %v", st, err)
	}
	log, _ := os.ReadFile(path + ".log")
	if !strings.Contains(string(log), "broken by carol@laptop3, run run-carol@laptop3, runbook runbooks/gpfs-verbs-rdma.hcl (holder: user=alice@laptop1") {
		t.Errorf("log:\n%s", log)
	}
	if broke, err := c.Break(ctx, c.Me); err != nil || broke {
		t.Errorf("Break of a free lock: %v, %v", broke, err)
	}
	ha.Release()
}

// TestSessionEndFreesTheLock: when the holder's session dies (its
// controller was killed: the stdin of the remote shell ends without
// Release), the lock is free for the next run.
func TestSessionEndFreesTheLock(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cluster.lock")
	ctx := context.Background()
	a, b := newLock(t, path, "alice@laptop1"), newLock(t, path, "bob@laptop2")
	ha, err := a.Acquire(ctx)
	if err != nil {
		t.Fatal(err)
	}
	h := ha.(*held)
	h.cancel() // the session is torn down, as sshd does when the client dies
	<-h.lost
	hb, err := b.Acquire(ctx)
	if err != nil {
		t.Fatalf("Acquire after the holder's session died: %v", err)
	}
	hb.Release()
}
