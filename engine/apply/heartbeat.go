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
// "running" report with the elapsed time. stop ends it.
type heartbeat struct {
	obs        event.Observer
	step, host string
	start      time.Time
	mu         sync.Mutex
	last       time.Time
	done       chan struct{}
	once       sync.Once
}

func (r *Runner) startHeartbeat(step, host string) *heartbeat {
	hb := &heartbeat{obs: r.opts.Observer, step: step, host: host, start: time.Now(), done: make(chan struct{})}
	hb.last = hb.start
	go hb.loop()
	return hb
}

func (hb *heartbeat) loop() {
	t := time.NewTicker(HeartbeatEvery)
	defer t.Stop()
	for {
		select {
		case <-hb.done:
			return
		case now := <-t.C:
			hb.mu.Lock()
			quiet := now.Sub(hb.last) >= HeartbeatEvery
			hb.mu.Unlock()
			if quiet {
				hb.obs.Observe(event.Progress{Step: hb.step, Host: hb.host, Message: "running", Elapsed: now.Sub(hb.start).Seconds()})
			}
		}
	}
}

// report passes a module's progress on.
func (hb *heartbeat) report(p module.Progress) {
	hb.mu.Lock()
	hb.last = time.Now()
	hb.mu.Unlock()
	hb.obs.Observe(event.Progress{Step: hb.step, Host: hb.host, Message: p.Message, Elapsed: p.Elapsed, Remaining: p.Remaining})
}

func (hb *heartbeat) stop() { hb.once.Do(func() { close(hb.done) }) }
