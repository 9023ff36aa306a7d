package apply

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/provadev/prova/engine/event"
	"github.com/provadev/prova/engine/module"
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

// fakeClock is a beatClock on a clock the test moves, recording what the
// timer is armed for.
type fakeClock struct {
	c      *beatClock
	now    time.Time
	armed  []time.Duration
	events []string
}

func newFakeClock() *fakeClock {
	f := &fakeClock{now: time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)}
	f.c = &beatClock{now: func() time.Time { return f.now }, arm: func(d time.Duration) { f.armed = append(f.armed, d) }}
	return f
}

func (f *fakeClock) start(host string, timeout time.Duration) *heartbeat {
	hb := &heartbeat{clock: f.c, step: "shell.a", host: host, timeout: timeout,
		obs: event.Func(func(e event.Event) {
			p := e.(event.Progress)
			f.events = append(f.events, fmt.Sprintf("%s %s %.0fs", p.Host, p.Message, p.Elapsed))
		})}
	f.c.add(hb)
	return hb
}

// tick moves the clock by d and ticks, as the timer would when armed for d.
func (f *fakeClock) tick(d time.Duration) {
	f.now = f.now.Add(d)
	for _, b := range f.c.tick() {
		b.obs.Observe(b.ev)
	}
}

// The clock ticks each heartbeat HeartbeatEvery after its start and then
// every HeartbeatEvery, as a timer per attempt did: a host whose module
// reported within the period is not reported, a stopped one never again,
// and the timer is armed for the next one due only.
func TestBeatClockTicksEachHeartbeatOnItsOwnSchedule(t *testing.T) {
	f := newFakeClock()
	a := f.start("a", 0)
	f.now = f.now.Add(2 * time.Second)
	b := f.start("b", time.Minute)
	f.now = f.now.Add(time.Second)
	c := f.start("c", 0)
	if want := []time.Duration{HeartbeatEvery}; !cmp.Equal(f.armed, want) {
		t.Fatalf("armed %v, want %v (once, for the first)", f.armed, want)
	}
	f.tick(2 * time.Second) // t=5s: a is due
	f.tick(2 * time.Second) // t=7s: b is due
	c.report(module.Progress{Message: "halfway"})
	f.tick(time.Second)     // t=8s: c is due, but reported at 8s
	f.tick(2 * time.Second) // t=10s: a again
	b.stop()
	f.tick(3 * time.Second) // t=13s: c's next tick (the timer was armed for b's, at 12s)
	a.stop()
	c.stop()
	want := []string{
		"a running 5s",
		"b running, times out in 55s 5s",
		"c halfway 0s",
		"a running 10s",
		"c running 10s",
	}
	if d := cmp.Diff(want, f.events); d != "" {
		t.Errorf("events (-want +got):\n%s", d)
	}
	wantArmed := []time.Duration{HeartbeatEvery, 2 * time.Second, time.Second, 2 * time.Second, 2 * time.Second, 2 * time.Second}
	if d := cmp.Diff(wantArmed, f.armed); d != "" {
		t.Errorf("armed (-want +got):\n%s", d)
	}
	if f.c.first != nil || f.c.end != nil {
		t.Errorf("heartbeats left after every stop")
	}
	f.tick(time.Minute)
	if len(f.events) != len(want) || len(f.armed) != len(wantArmed) {
		t.Errorf("a tick after every stop reported %q, armed %v", f.events[len(want):], f.armed[len(wantArmed):])
	}
}

// Stopping a heartbeat anywhere in the list keeps the others in order; a
// heartbeat stopped twice is stopped once.
func TestBeatClockRemovesFromAnywhere(t *testing.T) {
	f := newFakeClock()
	var hbs []*heartbeat
	for _, h := range []string{"a", "b", "c", "d"} {
		hbs = append(hbs, f.start(h, 0))
		f.now = f.now.Add(time.Second)
	}
	hbs[1].stop()
	hbs[3].stop()
	hbs[3].stop()
	hbs[0].stop()
	f.start("e", 0)
	var got []string
	for hb := f.c.first; hb != nil; hb = hb.next {
		got = append(got, hb.host)
	}
	if !cmp.Equal(got, []string{"c", "e"}) || f.c.end.host != "e" || f.c.first.prev != nil {
		t.Errorf("list %v", got)
	}
}

// With the real timer, a quiet attempt gets its "running" report.
func TestBeatClockRealTimer(t *testing.T) {
	c := &beatClock{every: time.Millisecond}
	got := make(chan event.Progress, 1)
	hb := &heartbeat{clock: c, step: "shell.a", host: "a", obs: event.Func(func(e event.Event) {
		select {
		case got <- e.(event.Progress):
		default:
		}
	})}
	c.add(hb)
	if p := <-got; p.Host != "a" || p.Message != "running" {
		t.Errorf("progress %+v", p)
	}
	hb.stop()
}

// A host's heartbeats are always on the same clock of a run's, and the
// hosts of a run spread over them.
func TestBeatClocksOfHost(t *testing.T) {
	var cs beatClocks
	used := map[*beatClock]bool{}
	for i := range 1000 {
		h := fmt.Sprintf("n%04d", i)
		c := cs.of(h)
		if again := cs.of(strings.Clone(h)); again != c {
			t.Fatalf("%s: two clocks", h)
		}
		used[c] = true
	}
	if len(used) != len(cs) {
		t.Errorf("1,000 hosts on %d of %d clocks", len(used), len(cs))
	}
}

// The first attempt of a host-step takes the heartbeat its streaming host
// holds; a retry's attempt gets one of its own (the first's module may
// still report into its own).
func TestStartHeartbeatFirstAttemptUsesTheHosts(t *testing.T) {
	r := &Runner{opts: Options{Observer: event.Func(func(event.Event) {})}}
	sh := &streamingHost{Host: printHost{}, step: "shell.a"}
	first := r.startHeartbeat(sh, "shell.a", 0)
	first.stop()
	second := r.startHeartbeat(sh, "shell.a", time.Minute)
	second.stop()
	if first != &sh.beat || second == first {
		t.Errorf("first %p, second %p, the host's %p", first, second, &sh.beat)
	}
	if second.host != "n1" || second.timeout != time.Minute || second.clock != r.beats.of("n1") {
		t.Errorf("second heartbeat %+v", second)
	}
}
