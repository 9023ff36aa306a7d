package cli

import (
	"sync"
	"testing"
	"time"

	"github.com/provadev/prova/engine/event"
)

type collect struct {
	mu  sync.Mutex
	got []string
}

func (c *collect) Observe(e event.Event) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.got = append(c.got, e.(event.Warning).Message)
}

func (c *collect) list() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]string(nil), c.got...)
}

// TestGateHoldsEventsUntilOpen: a warning given to the gate before it is
// open waits there and reaches the observer it is opened with (the run's,
// record included), none is lost or delivered early; later opens change
// nothing; a gate opened with nil drops what it holds.
func TestGateHoldsEventsUntilOpen(t *testing.T) {
	g := newGate()
	sent := make(chan struct{})
	go func() {
		g.Observe(event.Warning{Message: "early"})
		close(sent)
	}()
	select {
	case <-sent:
		t.Fatal("Observe returned before the gate was open: the event went nowhere")
	case <-time.After(20 * time.Millisecond):
	}
	var run, other collect
	g.open(&run)
	<-sent
	g.Observe(event.Warning{Message: "late"})
	g.open(&other)
	g.Observe(event.Warning{Message: "later"})
	if got := run.list(); len(got) != 3 || got[0] != "early" || got[1] != "late" || got[2] != "later" {
		t.Errorf("the run's observer got %q, want early, late, later", got)
	}
	if got := other.list(); len(got) != 0 {
		t.Errorf("a second open took events: %q", got)
	}

	closed := newGate()
	dropped := make(chan struct{})
	go func() {
		closed.Observe(event.Warning{Message: "dropped"})
		close(dropped)
	}()
	closed.open(nil)
	select {
	case <-dropped:
	case <-time.After(5 * time.Second):
		t.Fatal("a gate opened with nil still holds its events: a dial waiting on it would never end")
	}
}
