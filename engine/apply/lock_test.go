package apply

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"
)

// fakeLock records Acquire and Release; refuse makes Acquire fail.
type fakeLock struct {
	mu       sync.Mutex
	acquired int
	released int
	refuse   error
	before   []string // commands run before the lock was taken
	fleet    *fleet
}

func (l *fakeLock) Acquire(context.Context) (HeldLock, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.before = l.fleet.commands()
	if l.refuse != nil {
		return nil, l.refuse
	}
	l.acquired++
	return heldFake{l}, nil
}

type heldFake struct{ l *fakeLock }

func (heldFake) Where() string { return "n1:/lock" }
func (heldFake) Err() error    { return nil }
func (h heldFake) Release() error {
	h.l.mu.Lock()
	defer h.l.mu.Unlock()
	h.l.released++
	return nil
}

const lockRunbook = `
step "cmd" "probe" {
  command = "echo read"
  check   = "true"
}
step "cmd" "change" { command = "echo changed" }
step "cmd" "after" { command = "echo after" }
`

// The lock is taken once, after the steps that plan no change and before
// the first change, and released at the end.
func TestLockBeforeFirstChange(t *testing.T) {
	s := newRun(t, lockRunbook, three, ModeApply)
	lk := &fakeLock{fleet: s.fleet}
	s.r.opts.Lock = lk
	out, err := s.r.Run(context.Background())
	if err != nil || out.Failed {
		t.Fatalf("run: %v %+v", err, out)
	}
	if lk.acquired != 1 || lk.released != 1 {
		t.Fatalf("acquired %d, released %d", lk.acquired, lk.released)
	}
	if slices.ContainsFunc(lk.before, func(c string) bool { return strings.HasSuffix(c, "echo changed") }) {
		t.Errorf("a change ran before the lock: %q", lk.before)
	}
	if !slices.ContainsFunc(lk.before, func(c string) bool { return strings.HasSuffix(c, "echo read") }) {
		t.Errorf("the no-change step should run before the lock is needed: %q", lk.before)
	}
}

// A run with no change takes no lock.
func TestReadOnlyRunTakesNoLock(t *testing.T) {
	s := newRun(t, `step "cmd" "probe" {
  command = "echo read"
  check   = "true"
}`, three, ModeApply)
	lk := &fakeLock{fleet: s.fleet}
	s.r.opts.Lock = lk
	if out, err := s.r.Run(context.Background()); err != nil || out.Failed {
		t.Fatalf("run: %v %+v", err, out)
	}
	if lk.acquired != 0 || len(lk.before) != 0 {
		t.Fatalf("a run without changes asked for the lock")
	}
}

// A refused lock stops the run before any change, naming the refusal.
func TestLockRefusedStopsBeforeAnyChange(t *testing.T) {
	s := newRun(t, lockRunbook, three, ModeApply)
	lk := &fakeLock{fleet: s.fleet, refuse: errors.New("another prova run holds the cluster lock n1:/lock: bob@laptop")}
	s.r.opts.Lock = lk
	out, err := s.r.Run(context.Background())
	if err != nil || !out.Failed {
		t.Fatalf("run: %v %+v", err, out)
	}
	for _, c := range s.fleet.commands() {
		if strings.Contains(c, "echo changed") || strings.Contains(c, "echo after") {
			t.Errorf("ran after a refused lock: %q", c)
		}
	}
	f := s.ev.finished()["cmd.change@n1"]
	if !strings.Contains(f.Message, "refused before any change: another prova run holds the cluster lock n1:/lock: bob@laptop") {
		t.Errorf("message %q", f.Message)
	}
}
