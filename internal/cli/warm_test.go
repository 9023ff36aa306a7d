package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"sync"
	"testing"

	"github.com/provadev/prova/engine/module"
)

// fakeConn is a host whose Connect blocks until released, and which counts
// how many of its kind dial at once.
type fakeConn struct {
	name string
	w    *dials
}

func (f *fakeConn) Name() string { return f.name }
func (f *fakeConn) Run(context.Context, string, io.Reader, io.Writer, io.Writer) (int, error) {
	return 0, errors.New("not used")
}
func (f *fakeConn) Put(context.Context, string, io.Reader, fs.FileMode) error { return nil }
func (f *fakeConn) Get(context.Context, string, io.Writer) error              { return nil }

func (f *fakeConn) Connect(ctx context.Context) error {
	f.w.mu.Lock()
	f.w.order = append(f.w.order, f.name)
	f.w.now++
	f.w.peak = max(f.w.peak, f.w.now)
	f.w.mu.Unlock()
	f.w.started <- f.name
	defer func() {
		f.w.mu.Lock()
		f.w.now--
		f.w.mu.Unlock()
	}()
	select {
	case <-f.w.release:
		return nil
	case <-ctx.Done():
		f.w.mu.Lock()
		f.w.cancelled++
		f.w.mu.Unlock()
		return ctx.Err()
	}
}

type dials struct {
	mu                   sync.Mutex
	order                []string
	now, peak, cancelled int
	started              chan string
	release              chan struct{}
}

// noConnect is a host without Connect (a local host).
type noConnect struct{ fakeConn }

func (n *noConnect) Connect() {} // not the connecter interface

func TestWarmDialsEveryHostBoundedLockFirst(t *testing.T) {
	w := &dials{started: make(chan string, 100), release: make(chan struct{})}
	var names []string
	hosts := map[string]module.Host{}
	for i := range 7 {
		n := fmt.Sprintf("h%d", i)
		names = append(names, n)
		hosts[n] = &fakeConn{name: n, w: w}
	}
	hosts["h3"] = &noConnect{fakeConn{name: "h3", w: w}} // local: nothing to dial
	lock := &fakeConn{name: "lock", w: w}
	stop := warm(t.Context(), lock, names, 2, func(n string) module.Host { return hosts[n] })
	// The lock host and two hosts dial; no third one until one ends.
	got := map[string]bool{}
	for range 3 {
		got[<-w.started] = true
	}
	if !got["lock"] || !got["h0"] || !got["h1"] {
		t.Fatalf("first dials %v: want the lock host, h0 and h1", got)
	}
	select {
	case n := <-w.started:
		t.Fatalf("%s dialled while 2 (forks) dials were in flight", n)
	default:
	}
	close(w.release)
	for range 4 { // h2, h4, h5, h6; nothing for h3
		if n := <-w.started; n == "h3" {
			t.Fatal("a host without Connect was dialled")
		}
	}
	stop()
	w.mu.Lock()
	defer w.mu.Unlock()
	if len(w.order) != 7 {
		t.Errorf("dialled %v: want the lock host and the 6 hosts that connect", w.order)
	}
	if w.peak > 3 {
		t.Errorf("%d dials at once: want at most forks (2) plus the lock host", w.peak)
	}
}

func TestWarmStopCancelsAndWaits(t *testing.T) {
	w := &dials{started: make(chan string, 100), release: make(chan struct{})}
	names := []string{"a", "b", "c", "d"}
	stop := warm(context.Background(), nil, names, 2, func(n string) module.Host { return &fakeConn{name: n, w: w} })
	<-w.started
	<-w.started
	stop() // cancels the two in flight, launches no more, and waits
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.now != 0 {
		t.Errorf("%d dials still running after stop", w.now)
	}
	if w.cancelled != 2 || len(w.order) != 2 {
		t.Errorf("dialled %v, %d cancelled: want a and b, both cancelled", w.order, w.cancelled)
	}
}
