package apply

import (
	"sync"
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
// the time left before it times out. stop ends it. It runs on a timer
// (time.AfterFunc), not a goroutine of its own: a host-step that ends
// within HeartbeatEvery, as most do, costs one timer.
type heartbeat struct {
	obs        event.Observer
	step, host string
	start      time.Time
	timeout    time.Duration // 0: unbounded
	mu         sync.Mutex
	last       time.Time
	timer      *time.Timer
	stopped    bool
}

func (r *Runner) startHeartbeat(step, host string, timeout time.Duration) *heartbeat {
	hb := &heartbeat{obs: r.opts.Observer, step: step, host: host, start: time.Now(), timeout: timeout}
	hb.last = hb.start
	hb.mu.Lock()
	hb.timer = time.AfterFunc(HeartbeatEvery, hb.tick)
	hb.mu.Unlock()
	return hb
}

// tick reports the host as running when its module was quiet for
// HeartbeatEvery, and arms the next tick.
func (hb *heartbeat) tick() {
	hb.mu.Lock()
	if hb.stopped {
		hb.mu.Unlock()
		return
	}
	now := time.Now()
	quiet := now.Sub(hb.last) >= HeartbeatEvery
	hb.timer.Reset(HeartbeatEvery)
	hb.mu.Unlock()
	if quiet {
		hb.obs.Observe(event.Progress{Step: hb.step, Host: hb.host, Message: hb.running(now), Elapsed: now.Sub(hb.start).Seconds()})
	}
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
	hb.mu.Lock()
	hb.last = time.Now()
	hb.mu.Unlock()
	hb.obs.Observe(event.Progress{Step: hb.step, Host: hb.host, Message: p.Message, Elapsed: p.Elapsed, Remaining: p.Remaining})
}

func (hb *heartbeat) stop() {
	hb.mu.Lock()
	defer hb.mu.Unlock()
	hb.stopped = true
	hb.timer.Stop()
}
