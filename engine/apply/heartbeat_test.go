package apply

import (
	"testing"
	"time"
)

// The heartbeat of a bounded attempt says how long is left before it times
// out; an unbounded one only that it is running.
func TestHeartbeatSaysTimeLeft(t *testing.T) {
	start := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	hb := &heartbeat{start: start, timeout: 10 * time.Minute}
	if got := hb.running(start.Add(9*time.Minute + 45*time.Second)); got != "running, times out in 15s" {
		t.Errorf("bounded: %q", got)
	}
	if got := hb.running(start.Add(11 * time.Minute)); got != "running, times out in 0s" {
		t.Errorf("past the bound: %q", got)
	}
	hb.timeout = 0
	if got := hb.running(start.Add(time.Hour)); got != "running" {
		t.Errorf("unbounded: %q", got)
	}
}
