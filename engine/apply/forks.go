package apply

import (
	"context"
	"sync"
	"sync/atomic"
	"time"
)

// forkWorkers are the goroutines that run a run's fan-outs. They are kept
// from one fan-out to the next (one step to the next): a goroutine that
// ends gives its grown stack back, so a new goroutine per host per step
// grew a new stack for the deep expression evaluation, module call and
// record on every host-step (runtime.newstack and copystack were 6 % of a
// 200-host run's CPU under the engine's worker goroutines; the floor keeps
// one goroutine per host for all its commands).
//
// At most keep workers stay between fan-outs: the largest forks asked.
// The zero value is ready; stop lets the idle workers go, and a fan-out
// after stop starts workers again.
type forkWorkers struct {
	mu   sync.Mutex
	jobs chan *forkPool // an idle worker takes its next fan-out here
	done chan struct{}  // closed by stop
	idle int            // workers committed to take one job from jobs
	kept int            // workers that stay (idle or working)
	keep int            // at most this many stay
	// started and running count the goroutines started and not yet
	// ended, for tests.
	started, running int
}

// fanOut calls f for every host, at most forks at a time, and waits. A
// fixed set of workers takes the hosts in order, rather than a goroutine
// per host, and the workers are the ones the previous fan-out used when
// they are still there.
//
// A host that waits out a retry delay (sleep) gives its slot up while it
// waits, and a worker is added to take the next host meanwhile: forks
// bounds the hosts that run commands, not the ones that wait. Without
// this a step with until/retries/delay on N hosts took N/forks times its
// settle time (1,000 hosts, 50 forks and a minute of settling: 20 minutes).
func (w *forkWorkers) fanOut(ctx context.Context, hosts []string, forks int, f func(ctx context.Context, host string)) {
	workers := min(max(forks, 1), len(hosts))
	if workers == 0 {
		return
	}
	p := &forkPool{hosts: hosts, f: f, slots: make(chan struct{}, workers), workers: w}
	p.ctx = context.WithValue(ctx, forkPoolKey{}, p)
	w.mu.Lock()
	w.keep = max(w.keep, workers)
	w.mu.Unlock()
	p.wg.Add(workers)
	for range workers {
		w.dispatch(p)
	}
	p.wg.Wait()
}

// dispatch gives p to an idle worker, or to a new one when none is idle.
// The caller has counted the worker in p.wg.
func (w *forkWorkers) dispatch(p *forkPool) {
	w.mu.Lock()
	if w.jobs == nil {
		w.jobs, w.done = make(chan *forkPool), make(chan struct{})
	}
	jobs, done := w.jobs, w.done
	if w.idle > 0 {
		w.idle--
		w.mu.Unlock()
		select {
		case jobs <- p: // the worker is committed: it takes it at once
			return
		case <-done: // stopped meanwhile (not while a run is running)
		}
		w.mu.Lock()
	}
	w.started++
	w.running++
	w.mu.Unlock()
	go w.worker(p, jobs, done)
}

// worker runs p, then stays for the next fan-out if the set is not full
// and not stopped. It commits to taking the next job (idle) before it
// counts itself done in p.wg, so that a fan-out that follows this one
// finds it.
func (w *forkWorkers) worker(p *forkPool, jobs chan *forkPool, done chan struct{}) {
	defer func() {
		w.mu.Lock()
		w.running--
		w.mu.Unlock()
	}()
	kept := false
	for {
		p.work()
		w.mu.Lock()
		stay := w.jobs == jobs && (kept || w.kept < w.keep)
		if stay {
			if !kept {
				w.kept++
				kept = true
			}
			w.idle++
		}
		w.mu.Unlock()
		p.wg.Done()
		p = nil // an idle worker keeps nothing of the last step alive
		if !stay {
			return
		}
		select {
		case p = <-jobs:
		case <-done:
			return
		}
	}
}

// stop lets the idle workers go; workers still running leave when done.
func (w *forkWorkers) stop() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.done != nil {
		close(w.done)
	}
	w.jobs, w.done, w.idle, w.kept = nil, nil, 0, 0
}

// forkPool hands the hosts of one fan-out to its workers; slots holds one
// token per host running.
type forkPool struct {
	ctx     context.Context // the fan-out's, carrying the pool
	hosts   []string
	f       func(ctx context.Context, host string)
	slots   chan struct{}
	next    atomic.Int64
	wg      sync.WaitGroup
	workers *forkWorkers
}

type forkPoolKey struct{}

// work runs hosts of p until none is left.
func (p *forkPool) work() {
	for {
		p.slots <- struct{}{}
		i := int(p.next.Add(1)) - 1
		if i >= len(p.hosts) {
			<-p.slots
			return
		}
		p.f(p.ctx, p.hosts[i])
		<-p.slots
	}
}

// sleep waits d, or until ctx is done, without holding the fork slot of
// the fan-out ctx came from (when there is one): another host runs
// meanwhile, and the slot is taken again before sleep returns. It reports
// whether the whole delay passed.
func sleep(ctx context.Context, d time.Duration) bool {
	p, _ := ctx.Value(forkPoolKey{}).(*forkPool)
	if p != nil {
		<-p.slots
		if p.next.Load() < int64(len(p.hosts)) {
			p.wg.Add(1)
			p.workers.dispatch(p)
		}
		// Always take a slot back, even when ctx ends meanwhile: the
		// caller's worker gives one up when the host is done, and the
		// hosts still running finish quickly once ctx has ended.
		defer func() { p.slots <- struct{}{} }()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
		return true
	}
}
