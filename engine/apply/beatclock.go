package apply

import (
	"sync"
	"time"

	"github.com/provadev/prova/engine/event"
)

// beatClock ticks the heartbeats of one run with one timer. A timer per
// attempt (time.AfterFunc) cost every host-step an allocation of the
// timer and its callback and a change of the runtime's timer heap, when
// almost every host-step ends long before its first tick.
//
// Every heartbeat is due HeartbeatEvery (every) after it started or last
// ticked. The clock reads the time under its lock when it adds or re-arms
// one, so its list, appended to at the end, is in order of due: the first
// is the next to tick, a heartbeat is added or stopped in constant time,
// and the timer is armed only for the first (when the list was empty, or
// after a tick). A tick reports, as the timer per attempt did, a host
// whose module was quiet for every, and re-arms for every after the tick.
// The ticks of one moment are reported one after another, from the
// timer's goroutine.
type beatClock struct {
	mu         sync.Mutex
	every      time.Duration         // 0: HeartbeatEvery
	now        func() time.Time      // nil: time.Now (tests set both)
	arm        func(d time.Duration) // nil: the timer (tests record)
	first, end *heartbeat            // the list, in order of due
	armed      bool                  // a tick is pending
	timer      *time.Timer
}

// beatClocks are a run's heartbeat clocks, a host's heartbeats always on
// the same one: with one clock the fan-out's workers queued on its lock at
// every host-step.
type beatClocks [16]beatClock

// of is host's clock.
func (cs *beatClocks) of(host string) *beatClock {
	h := uint32(2166136261) // FNV-1a
	for i := 0; i < len(host); i++ {
		h = (h ^ uint32(host[i])) * 16777619
	}
	return &cs[h%uint32(len(cs))]
}

func (c *beatClock) interval() time.Duration {
	if c.every > 0 {
		return c.every
	}
	return HeartbeatEvery
}

func (c *beatClock) clockNow() time.Time {
	if c.now != nil {
		return c.now()
	}
	return time.Now()
}

// add starts hb: its start is now, its first tick due a period later.
func (c *beatClock) add(hb *heartbeat) {
	c.mu.Lock()
	defer c.mu.Unlock()
	hb.start = c.clockNow()
	hb.due = hb.start.Add(c.interval())
	c.push(hb)
	if !c.armed {
		c.armed = true
		c.armFor(c.interval())
	}
}

// remove stops hb; it never ticks again.
func (c *beatClock) remove(hb *heartbeat) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.unlink(hb)
}

func (c *beatClock) push(hb *heartbeat) {
	hb.prev, hb.next, hb.listed = c.end, nil, true
	if c.end == nil {
		c.first = hb
	} else {
		c.end.next = hb
	}
	c.end = hb
}

func (c *beatClock) unlink(hb *heartbeat) {
	if !hb.listed {
		return
	}
	if hb.prev == nil {
		c.first = hb.next
	} else {
		hb.prev.next = hb.next
	}
	if hb.next == nil {
		c.end = hb.prev
	} else {
		hb.next.prev = hb.prev
	}
	hb.prev, hb.next, hb.listed = nil, nil, false
}

func (c *beatClock) armFor(d time.Duration) {
	switch {
	case c.arm != nil:
		c.arm(d)
	case c.timer == nil:
		c.timer = time.AfterFunc(d, c.fire)
	default:
		c.timer.Reset(d)
	}
}

// fire is the timer's: it ticks what is due.
func (c *beatClock) fire() {
	for _, p := range c.tick() {
		p.obs.Observe(p.ev)
	}
}

// beat is a tick's report, made under the clock's lock and passed on
// after it.
type beat struct {
	obs event.Observer
	ev  event.Progress
}

// tick re-arms every heartbeat that is due, returns the reports of those
// whose module was quiet for a period, and arms the timer for the next
// one due.
func (c *beatClock) tick() []beat {
	c.mu.Lock()
	defer c.mu.Unlock()
	now := c.clockNow()
	every := c.interval()
	c.armed = false
	var out []beat
	for hb := c.first; hb != nil && !hb.due.After(now); hb = c.first {
		c.unlink(hb)
		elapsed := now.Sub(hb.start)
		if elapsed-time.Duration(hb.quietSince.Load()) >= every {
			out = append(out, beat{hb.obs, event.Progress{Step: hb.step, Host: hb.host, Message: hb.running(now), Elapsed: elapsed.Seconds()}})
		}
		hb.due = now.Add(every)
		c.push(hb) // due after every other: they were all due by now+every
	}
	if c.first != nil {
		c.armed = true
		c.armFor(c.first.due.Sub(now))
	}
	return out
}
