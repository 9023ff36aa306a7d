package sshconn

import (
	"net"
	"testing"
	"time"
)

func waitFor(t *testing.T, c <-chan struct{}, what string) {
	t.Helper()
	select {
	case <-c:
	case <-time.After(10 * time.Second):
		t.Fatalf("%s: not called", what)
	}
}

func TestEndWatchCallsOnceOnReadError(t *testing.T) {
	a, b := net.Pipe()
	defer a.Close()
	ew := watchEnd(a)
	called := make(chan struct{}, 2)
	ew.onEnd(func() { called <- struct{}{} })
	b.Close() // the peer goes away: the next Read fails
	if _, err := ew.Read(make([]byte, 8)); err == nil {
		t.Fatal("Read after the peer closed: no error")
	}
	waitFor(t, called, "after a failed Read")
	ew.Close() // ending again calls nothing more
	if _, err := ew.Read(make([]byte, 8)); err == nil {
		t.Fatal("Read after Close: no error")
	}
	select {
	case <-called:
		t.Fatal("called twice")
	default:
	}
}

func TestEndWatchCallsOnClose(t *testing.T) {
	a, b := net.Pipe()
	defer b.Close()
	ew := watchEnd(a)
	called := make(chan struct{})
	ew.onEnd(func() { close(called) })
	go func() { b.Write([]byte("x")) }()
	if n, err := ew.Read(make([]byte, 8)); n != 1 || err != nil {
		t.Fatalf("Read = %d, %v", n, err)
	}
	select {
	case <-called:
		t.Fatal("called while the connection is up")
	default:
	}
	ew.Close()
	waitFor(t, called, "after Close")
}

func TestEndWatchRegisteredAfterTheEnd(t *testing.T) {
	a, _ := net.Pipe()
	ew := watchEnd(a)
	ew.Close() // e.g. the connection failed before the client was made
	called := make(chan struct{})
	ew.onEnd(func() { close(called) })
	waitFor(t, called, "registered after the end")
}
