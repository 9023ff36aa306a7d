package bench

import (
	"fmt"
	"math"
	"time"

	"github.com/provadev/prova/engine/module"
)

// progressEvery is how often a running benchmark reports progress.
const progressEvery = 2 * time.Second

// startProgress reports progress in a goroutine (reportProgress) until
// the func it returns is called, which returns once the goroutine is done:
// no report comes after it, so the module is done with the request's
// Progress when its Apply returns (the engine reuses a host's heartbeat
// for its next step).
func startProgress(report func(module.Progress), what string, total int) (stop func()) {
	stopped, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		reportProgress(report, what, total, stopped)
	}()
	return func() {
		close(stopped)
		<-done
	}
}

// reportProgress calls report every progressEvery until stop is closed,
// with the elapsed and remaining time of a run of total seconds (0:
// unknown).
func reportProgress(report func(module.Progress), what string, total int, stop <-chan struct{}) {
	if report == nil {
		return
	}
	start := time.Now()
	t := time.NewTicker(progressEvery)
	defer t.Stop()
	for {
		select {
		case <-stop:
			return
		case <-t.C:
			el := time.Since(start).Seconds()
			p := module.Progress{Elapsed: math.Round(el), Message: fmt.Sprintf("%s: %.0fs", what, el)}
			if total > 0 {
				p.Remaining = math.Max(0, math.Round(float64(total)-el))
				p.Message = fmt.Sprintf("%s: %.0fs of %ds", what, el, total)
			}
			report(p)
		}
	}
}

func round(v float64) float64 { return math.Round(v*1000) / 1000 }
