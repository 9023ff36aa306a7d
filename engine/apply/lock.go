package apply

import (
	"context"
	"fmt"

	"github.com/provadev/prova/engine/event"
	"github.com/provadev/prova/engine/module"
	"github.com/provadev/prova/engine/program"
)

// Lock is the cluster lock an apply takes before its first change and
// holds to the end of the run, so that two admins never change one cluster
// at once. The engine calls Acquire at most once per run, lazily: before
// the first Apply of a step whose module's read-only Plan says it would
// change the host (or cannot say). Read-only runs never call it.
type Lock interface {
	// Acquire takes the lock. A refusal's error names the holder and since
	// when; an unreachable lock host gives an error module.IsUnreachable
	// reports.
	Acquire(ctx context.Context) (HeldLock, error)
}

// HeldLock is a lock taken by Acquire.
type HeldLock interface {
	// Where names the lock ("gpfs01:/var/lib/prova/cluster.lock").
	Where() string
	// Err is non-nil once the lock was lost (broken by another admin, the
	// lock host went away).
	Err() error
	// Release frees the lock.
	Release() error
}

// lockFor takes the run's lock, if the run has one and does not hold it
// yet, before step s changes host h: a ReadOnly module takes none, a
// Planner's Plan is asked first and a step that plans no change takes
// none. It returns the
// plan answer when it asked for one, for ApplyRequest.Planned.
func (r *Runner) lockFor(ctx context.Context, s *program.Step, req module.PlanRequest) (*module.PlanResponse, error) {
	if r.opts.Lock == nil {
		return nil, nil
	}
	r.lockMu.Lock()
	held, refused := r.held, r.lockErr
	r.lockMu.Unlock()
	if refused != nil {
		return nil, refused
	}
	if held != nil {
		if err := held.Err(); err != nil {
			return nil, fmt.Errorf("refused: the cluster lock %s was lost: %w", held.Where(), err)
		}
		return nil, nil
	}
	if _, ro := s.Module.(module.ReadOnly); ro {
		return nil, nil
	}
	p, ok := s.Module.(module.Planner)
	if !ok {
		return nil, r.takeLock(ctx, s)
	}
	resp, err := p.Plan(ctx, req)
	if err == nil && (resp.Action == module.NoOp) {
		return &resp, nil
	}
	var planned *module.PlanResponse
	if err == nil {
		planned = &resp
	}
	return planned, r.takeLock(ctx, s)
}

// takeLock acquires the lock once; every later caller sees the same
// result.
func (r *Runner) takeLock(ctx context.Context, s *program.Step) error {
	r.lockMu.Lock()
	defer r.lockMu.Unlock()
	if r.held != nil || r.lockErr != nil {
		return r.lockErr
	}
	h, err := r.opts.Lock.Acquire(ctx)
	if err != nil {
		r.lockErr = fmt.Errorf("refused before any change: %w", err)
		r.opts.Observer.Observe(event.Lock{Action: "refused", Step: s.ID(), Message: err.Error()})
		return r.lockErr
	}
	r.held = h
	r.opts.Observer.Observe(event.Lock{Action: "acquired", Step: s.ID(), Where: h.Where()})
	return nil
}

// releaseLock frees the lock at the end of the run.
func (r *Runner) releaseLock() {
	r.lockMu.Lock()
	h := r.held
	r.held = nil
	r.lockMu.Unlock()
	if h == nil {
		return
	}
	ev := event.Lock{Action: "released", Where: h.Where()}
	if err := h.Release(); err != nil {
		ev.Message = err.Error()
	}
	r.opts.Observer.Observe(ev)
}

// lockStop turns a refused lock into the run's stop, unless the step
// already stops it.
func (r *Runner) lockStop(st stop) stop {
	r.lockMu.Lock()
	defer r.lockMu.Unlock()
	if r.lockErr == nil || st.stops() {
		return st
	}
	return stop{cause: event.AbortLocked, reason: "cluster lock: " + r.lockErr.Error()}
}
