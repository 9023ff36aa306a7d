package apply

import (
	"context"
	"sync"
	"sync/atomic"
	"time"
)

// fanOut calls f for every host, at most forks at a time, and waits. It
// runs a fixed set of workers that take the hosts in order, rather than a
// goroutine per host: a worker's stack grows once for the deep expression
// evaluation and module calls, not once per host-step.
//
// A host that waits out a retry delay (sleep) gives its slot up while it
// waits, and a worker is added to take the next host meanwhile: forks
// bounds the hosts that run commands, not the ones that wait. Without
// this a step with until/retries/delay on N hosts took N/forks times its
// settle time (1,000 hosts, 50 forks and a minute of settling: 20 minutes).
func fanOut(ctx context.Context, hosts []string, forks int, f func(ctx context.Context, host string)) {
	workers := min(max(forks, 1), len(hosts))
	if workers == 0 {
		return
	}
	p := &forkPool{hosts: hosts, f: f, slots: make(chan struct{}, workers)}
	p.ctx = context.WithValue(ctx, forkPoolKey{}, p)
	p.wg.Add(workers)
	for range workers {
		go p.work()
	}
	p.wg.Wait()
}

// forkPool hands the hosts of one fan-out to its workers; slots holds one
// token per host running.
type forkPool struct {
	ctx   context.Context // the fan-out's, carrying the pool
	hosts []string
	f     func(ctx context.Context, host string)
	slots chan struct{}
	next  atomic.Int64
	wg    sync.WaitGroup
}

type forkPoolKey struct{}

func (p *forkPool) work() {
	defer p.wg.Done()
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
			go p.work()
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
