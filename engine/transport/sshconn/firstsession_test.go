package sshconn_test

import (
	"context"
	"strings"
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

// File transfer takes the first session too: with a single session slot,
// held by the first session until something takes it, a transfer that
// opened a session of its own would wait for that slot for ever. And a
// first session the server closed meanwhile gives the transfer a new
// one.
func TestFirstSessionServesFileTransfer(t *testing.T) {
	for _, closeFirst := range []bool{false, true} {
		s := sshtest.NewServer(t, nil, sshtest.WithSFTPDir(t.TempDir()))
		var closed <-chan struct{}
		if closeFirst {
			closed = s.CloseIdleSessions(1)
		}
		h := newPool(t, sshconn.Options{MaxSessions: 1}).Host(fakeTarget(t, "n1", s))
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		if err := h.Connect(ctx); err != nil {
			t.Fatal(err)
		}
		if closed != nil {
			<-closed
		}
		if err := h.Put(ctx, "f", strings.NewReader("data"), 0o600); err != nil {
			t.Errorf("Put (first session closed by the server: %v): %v", closeFirst, err)
		}
		var got strings.Builder
		if err := h.Get(ctx, "f", &got); err != nil || got.String() != "data" {
			t.Errorf("Get (first session closed by the server: %v): %q, %v", closeFirst, got.String(), err)
		}
		cancel()
	}
}
