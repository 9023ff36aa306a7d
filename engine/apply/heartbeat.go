package apply

import (
	"sync/atomic"
	"time"

	"github.com/provadev/prova/engine/event"
	"github.com/provadev/prova/engine/module"
)

// HeartbeatEvery is how often a host that is still busy with a step is
// reported as running (with its elapsed time) when its module reports no
// progress of its own.
const HeartbeatEvery = 5 * time.Second

// heartbeat reports a running host-step as Progress events: the module's
// own reports, passed through, and between them, every HeartbeatEvery, a
// "running" report with the elapsed time and, when the attempt is bounded,
// the time left before it times out. stop ends it. One of the run's
// beatClocks keeps it; it has no timer or goroutine of its own.
type heartbeat struct {
	obs        event.Observer
	clock      *beatClock
	step, host string
	start      time.Time
	timeout    time.Duration // 0: unbounded
	// quietSince is when the module last reported, as time since start
	// (0: never).
	quietSince atomic.Int64
	// Kept by clock, under its lock: when the next tick is due and the
	// heartbeat's place in the clock's list (in order of due).
	due        time.Time
	prev, next *heartbeat
	listed     bool
	// progress is report as a func, made once per heartbeat: a streaming
	// host's heartbeat serves every step of its host.
	progress func(module.Progress)
}

// startHeartbeat starts the heartbeat of an attempt on h: the first
// attempt of a host-step uses the one its streaming host holds (no
// allocation of its own; its progress func, made on its first use, serves
// every later step of the host).
func (r *Runner) startHeartbeat(h module.Host, step string, timeout time.Duration) *heartbeat {
	host := h.Name()
	var hb *heartbeat
	if sh, ok := h.(*streamingHost); ok && !sh.beatTaken {
		sh.beatTaken = true
		hb = &sh.beat
	} else {
		hb = new(heartbeat)
	}
	if hb.progress == nil {
		hb.progress = hb.report
	}
	hb.quietSince.Store(0)
	hb.obs, hb.clock, hb.step, hb.host, hb.timeout = r.opts.Observer, r.beats.of(host), step, host, timeout
	hb.clock.add(hb)
	return hb
}

// running is the heartbeat's message: "running", and with a bound, how
// long until the attempt times out.
func (hb *heartbeat) running(now time.Time) string {
	if hb.timeout <= 0 {
		return "running"
	}
	left := hb.timeout - now.Sub(hb.start)
	if left < 0 {
		left = 0
	}
	return "running, times out in " + left.Round(time.Second).String()
}

// report passes a module's progress on.
func (hb *heartbeat) report(p module.Progress) {
	hb.quietSince.Store(int64(hb.clock.clockNow().Sub(hb.start)))
	hb.obs.Observe(event.Progress{Step: hb.step, Host: hb.host, Message: p.Message, Elapsed: p.Elapsed, Remaining: p.Remaining})
}

func (hb *heartbeat) stop() { hb.clock.remove(hb) }
