package apply

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/provadev/prova/engine/event"
)

func hostNames(n int) []string {
	var hs []string
	for i := range n {
		hs = append(hs, fmt.Sprintf("n%02d", i+1))
	}
	return hs
}

// A host waiting out its retry delay does not hold a fork slot: with 2
// forks, 8 hosts and an hour's delay, every host makes its first attempt
// while the first two wait. (Before, the next two hosts started only
// after an hour.)
func TestRetryDelayFreesTheForkSlot(t *testing.T) {
	hosts := hostNames(8)
	s := newRun(t, `
step "cmd" "a" {
  retries = 1
  delay   = "1h"
  until   = self.rc == 0
  command = "succeed-after 2"
}`, hosts, ModeApply)
	s.r.opts.Forks = 2
	// Every host announces its retry (event.Retry) before it sleeps.
	var mu sync.Mutex
	first := map[string]bool{}
	all := make(chan struct{})
	s.r.opts.Observer = event.Multi{s.ev, event.Func(func(e event.Event) {
		r, ok := e.(event.Retry)
		if !ok {
			return
		}
		mu.Lock()
		defer mu.Unlock()
		if !first[r.Host] {
			first[r.Host] = true
			if len(first) == len(hosts) {
				close(all)
			}
		}
	})}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		s.r.Run(ctx)
	}()
	select {
	case <-all:
	case <-time.After(2 * time.Minute): // a liveness guard, not a timing: the hour would pass first
		mu.Lock()
		n := len(first)
		mu.Unlock()
		t.Errorf("only %d of %d hosts made a first attempt and began to wait while the others waited out their delay", n, len(hosts))
	}
	cancel()
	<-done
	for _, hf := range s.ev.finished() {
		if hf.Status != event.Failed || !strings.Contains(hf.Message, "interrupted during retry delay") {
			t.Errorf("%s: %s %q, want the retry delay interrupted", hf.Host, hf.Status, hf.Message)
		}
	}
}

// Hosts that give their slot up while they wait still never run more
// than forks commands at once, and every host finishes.
func TestRetryDelayKeepsTheForkBound(t *testing.T) {
	hosts := hostNames(40)
	s := newRun(t, `
step "cmd" "a" {
  retries = 3
  delay   = "1ms"
  until   = self.rc == 0
  command = "succeed-after 3"
}`, hosts, ModeApply)
	const forks = 3
	s.r.opts.Forks = forks
	var mu sync.Mutex
	running, most := 0, 0
	s.fleet.hook = func(host, cmd string) {
		mu.Lock()
		running++
		most = max(most, running)
		mu.Unlock()
		for range 20 { // let other hosts in while this command "runs"
			runtime.Gosched()
		}
		mu.Lock()
		running--
		mu.Unlock()
	}
	out, err := s.r.Run(context.Background())
	if err != nil || out.Failed {
		t.Fatalf("outcome %+v, %v", out, err)
	}
	if most > forks {
		t.Errorf("%d commands ran at once, forks = %d", most, forks)
	}
	if n := len(s.fleet.commands()); n != 3*len(hosts) {
		t.Errorf("%d commands, want %d", n, 3*len(hosts))
	}
}

// counts returns started and running under the lock.
func (w *forkWorkers) counts() (started, running int) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.started, w.running
}

// together returns a host function that returns only once n calls are
// in it at the same time: a fan-out of n hosts then needs n workers,
// whatever the scheduler does.
func together(n int, each func(string)) func(context.Context, string) {
	var in sync.WaitGroup
	in.Add(n)
	return func(_ context.Context, h string) {
		each(h)
		in.Done()
		in.Wait()
	}
}

// The workers of one fan-out take the next one's hosts: a run's steps
// do not start a goroutine per host per step. Every host is still run
// once per fan-out.
func TestFanOutKeepsItsWorkersForTheNext(t *testing.T) {
	var w forkWorkers
	defer w.stop()
	for round, n := range []int{8, 8, 3, 8, 5} {
		var mu sync.Mutex
		seen := map[string]int{}
		w.fanOut(context.Background(), hostNames(n), 8, together(n, func(h string) {
			mu.Lock()
			seen[h]++
			mu.Unlock()
		}))
		if len(seen) != n {
			t.Errorf("round %d: %d hosts run, want %d", round, len(seen), n)
		}
		for h, c := range seen {
			if c != 1 {
				t.Errorf("round %d: %s run %d times", round, h, c)
			}
		}
		if started, _ := w.counts(); started != 8 {
			t.Errorf("round %d: %d workers started in all, want the first round's 8 kept", round, started)
		}
	}
}

// More hosts than forks: never more than forks workers, nor hosts at once,
// over several fan-outs.
func TestFanOutBoundsItsWorkers(t *testing.T) {
	var w forkWorkers
	defer w.stop()
	var mu sync.Mutex
	n, running, most := 0, 0, 0
	for range 3 {
		w.fanOut(context.Background(), hostNames(50), 4, func(context.Context, string) {
			mu.Lock()
			n++
			running++
			most = max(most, running)
			mu.Unlock()
			runtime.Gosched()
			mu.Lock()
			running--
			mu.Unlock()
		})
	}
	if n != 150 {
		t.Errorf("%d host calls, want 150", n)
	}
	if most > 4 {
		t.Errorf("%d hosts at once, forks = 4", most)
	}
	if started, _ := w.counts(); started > 4 {
		t.Errorf("%d workers started, want at most 4", started)
	}
}

// stop lets the kept workers go, and a fan-out after it starts new ones.
func TestFanOutStopLetsWorkersGo(t *testing.T) {
	var w forkWorkers
	w.fanOut(context.Background(), hostNames(6), 6, together(6, func(string) {}))
	w.stop()
	waitNoWorkers(t, &w)
	calls := 0
	var mu sync.Mutex
	w.fanOut(context.Background(), hostNames(6), 6, together(6, func(string) {
		mu.Lock()
		calls++
		mu.Unlock()
	}))
	if started, _ := w.counts(); calls != 6 || started != 12 {
		t.Errorf("after stop: %d calls, %d workers started in all; want 6 and 12", calls, started)
	}
	w.stop()
	waitNoWorkers(t, &w)
}

// A run lets its workers go when it ends, whether it succeeded or was
// interrupted.
func TestRunLeavesNoForkWorkers(t *testing.T) {
	for _, cancelled := range []bool{false, true} {
		s := newRun(t, `
step "cmd" "a" { command = "true" }
step "cmd" "b" { command = "true" }`, hostNames(5), ModeApply)
		ctx, cancel := context.WithCancel(context.Background())
		if cancelled {
			s.fleet.hook = func(string, string) { cancel() }
		}
		if _, err := s.r.Run(ctx); err != nil {
			t.Fatal(err)
		}
		cancel()
		if started, _ := s.r.workers.counts(); started == 0 {
			t.Errorf("cancelled=%v: no worker started", cancelled)
		}
		waitNoWorkers(t, &s.r.workers)
	}
}

// waitNoWorkers waits for every worker to have ended: a liveness guard of
// a minute, not a timing.
func waitNoWorkers(t *testing.T, w *forkWorkers) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for {
		_, running := w.counts()
		if running == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d fork workers still running after stop", running)
		}
		runtime.Gosched()
	}
}
