package sshconn_test

import (
	"context"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/provadev/prova/engine/transport/sshconn"
	"github.com/provadev/prova/internal/testkit/sshtest"
)

// The connection's first session is opened with the connection, before
// any command, and the first command starts on it: two commands open two
// sessions, not three.
func TestFirstCommandTakesTheSessionOpenedWithTheConnection(t *testing.T) {
	s := sshtest.NewServer(t, nil)
	h := newPool(t, sshconn.Options{}).Host(fakeTarget(t, "n1", s))
	if err := h.Connect(context.Background()); err != nil {
		t.Fatal(err)
	}
	run(t, h, "echo one")
	if n := s.SessionsOpened(); n != 1 {
		t.Errorf("after the first command: %d sessions opened, want 1 (the one opened with the connection)", n)
	}
	run(t, h, "echo two")
	if n := s.SessionsOpened(); n != 2 {
		t.Errorf("after the second command: %d sessions opened, want 2", n)
	}
}

// A first session the server closed while it waited (sshd's
// ChannelTimeout) is not a lost connection: the command starts on a new
// session and runs once.
func TestFirstSessionClosedByTheServer(t *testing.T) {
	s := sshtest.NewServer(t, nil)
	closed := s.CloseIdleSessions(1)
	h := newPool(t, sshconn.Options{}).Host(fakeTarget(t, "n1", s))
	if err := h.Connect(context.Background()); err != nil {
		t.Fatal(err)
	}
	select {
	case <-closed: // opened with the connection, no command yet, and closed
	case <-time.After(10 * time.Second):
		t.Fatal("no session was opened with the connection")
	}
	if out := run(t, h, "echo ran"); out.Stdout != "ran\n" {
		t.Errorf("stdout %q", out.Stdout)
	}
	if diff := cmp.Diff([]string{"echo ran"}, s.Commands()); diff != "" {
		t.Errorf("commands (-want +got):\n%s", diff)
	}
	if n := s.SessionsOpened(); n != 2 {
		t.Errorf("%d sessions opened, want 2 (the closed one and the command's)", n)
	}
}
