package module

import (
	"context"
	"sync"
	"time"
)

// Attempt is the context of one attempt of a step on a host: its parent's
// values and cancellation, and a deadline (the step's timeout). To a
// module it is an ordinary context.Context and behaves as
// context.WithDeadline's would: Err, Done, Deadline, Value and
// context.Cause say the same, and End is its cancel function.
//
// What it saves is the cost of that context per host-step: until
// something asks for its Done channel it is one allocation, with no timer
// and no registration with its parent (whose mutex every fan-out worker
// would take twice per host-step). A transport that knows the type
// (engine/transport/sshconn) watches the parent and the deadline itself,
// with a watch it keeps per connection, and registers with Watch only to
// hear of End; any other transport, and any module that selects on Done,
// gets the full context, made on the first call.
type Attempt struct {
	parent   context.Context
	pdone    <-chan struct{} // parent.Done(), read once
	deadline time.Time       // zero: none

	mu     sync.Mutex
	err    error           // once non-nil, what Err returns
	full   context.Context // made by Done: then the source of Err and Value
	cancel context.CancelFunc
	ended  bool // End was called
	// own is set when the attempt ended by itself (the deadline, End)
	// before its full context was made: a context that ended the same way,
	// whose cancellation state context.Cause finds through Value.
	own     context.Context
	watched [2]attemptWatch
	more    []attemptWatch
}

// AttemptWatcher is told, through AttemptEnded with the token it gave
// Watch, that the attempt it watches was ended by End. Its parent's end
// and its deadline it watches itself (Parent, Deadline).
type AttemptWatcher interface {
	AttemptEnded(token uint64)
}

type attemptWatch struct {
	w     AttemptWatcher
	token uint64
}

// NewAttempt returns the context of an attempt under parent that ends at
// deadline (zero: only with parent, or End), or at parent's own deadline
// when that is sooner. The caller must call End once the attempt is over.
func NewAttempt(parent context.Context, deadline time.Time) *Attempt {
	if pd, ok := parent.Deadline(); ok && (deadline.IsZero() || pd.Before(deadline)) {
		deadline = pd
	}
	return &Attempt{parent: parent, pdone: parent.Done(), deadline: deadline}
}

// Parent is the context the attempt was made under.
func (a *Attempt) Parent() context.Context { return a.parent }

// Deadline is the attempt's deadline, if it has one.
func (a *Attempt) Deadline() (time.Time, bool) { return a.deadline, !a.deadline.IsZero() }

// Err is nil until the attempt has ended; then context.Canceled when End
// (or the parent's cancellation, with the parent's error) ended it, or
// context.DeadlineExceeded, and the same from then on.
func (a *Attempt) Err() error {
	a.mu.Lock()
	err := a.errLocked()
	a.mu.Unlock()
	return err
}

func (a *Attempt) errLocked() error {
	switch {
	case a.err != nil:
	case a.full != nil:
		a.err = a.full.Err()
	default:
		select {
		case <-a.pdone: // nil: never
			a.err = a.parent.Err()
		default:
			if !a.deadline.IsZero() && !time.Now().Before(a.deadline) {
				a.err, a.own = context.DeadlineExceeded, expired
			}
		}
	}
	return a.err
}

// Done makes the attempt's full context, once, and returns its channel:
// closed when the parent ends, at the deadline, or by End.
func (a *Attempt) Done() <-chan struct{} {
	a.mu.Lock()
	f := a.fullLocked()
	a.mu.Unlock()
	return f.Done()
}

// fullLocked is the context.WithDeadline the attempt stands for, made
// once. An attempt that has already ended gets one that ended for the same
// reason, so that Err, Done and Cause agree.
func (a *Attempt) fullLocked() context.Context {
	if a.full != nil {
		return a.full
	}
	switch err := a.errLocked(); {
	case err == nil && a.deadline.IsZero():
		a.full, a.cancel = context.WithCancel(a.parent)
	case err == nil:
		a.full, a.cancel = context.WithDeadline(a.parent, a.deadline)
	case a.own == expired:
		// A deadline in the past: ended at once, DeadlineExceeded its
		// error and cause, the parent's values kept.
		a.full, a.cancel = context.WithDeadline(context.WithoutCancel(a.parent), time.Time{})
	case a.own == ended:
		a.full, a.cancel = context.WithCancel(context.WithoutCancel(a.parent))
		a.cancel()
	default: // the parent ended: its error and cause
		a.full, a.cancel = context.WithCancel(a.parent)
	}
	a.own = nil
	return a.full
}

// Value is the parent's value for key (the full context's once made; the
// same values, and context.Cause finds the right cause through it).
func (a *Attempt) Value(key any) any {
	a.mu.Lock()
	f, own := a.full, a.own
	a.mu.Unlock()
	if f != nil {
		return f.Value(key)
	}
	// Of a context made from Background, only the key of its cancellation
	// state has a value: context.Cause's lookup, answered as the attempt
	// ended, not as its parent (which may have ended since, otherwise).
	if own != nil {
		if v := own.Value(key); v != nil {
			return v
		}
	}
	return a.parent.Value(key)
}

// expired and ended are contexts that ended as an attempt ends by itself:
// at its deadline, and by End.
var expired, ended = func() (context.Context, context.Context) {
	x, stop := context.WithDeadline(context.Background(), time.Time{}) // ended at once
	stop()                                                             // Err stays DeadlineExceeded
	e, cancel := context.WithCancel(context.Background())
	cancel()
	return x, e
}()

// End ends the attempt (context.Canceled unless it had ended already),
// as a context's cancel function does, and tells every watcher still
// registered. It may be called more than once.
func (a *Attempt) End() {
	a.mu.Lock()
	if a.ended {
		a.mu.Unlock()
		return
	}
	a.ended = true
	if a.errLocked() == nil {
		a.err = context.Canceled
		if a.full == nil {
			a.own = ended
		}
	}
	cancel := a.cancel
	watched, more := a.watched, a.more
	a.watched, a.more = [2]attemptWatch{}, nil
	a.mu.Unlock()
	if cancel != nil {
		cancel()
	}
	for _, aw := range watched {
		if aw.w != nil {
			aw.w.AttemptEnded(aw.token)
		}
	}
	for _, aw := range more {
		aw.w.AttemptEnded(aw.token)
	}
}

// Watch registers w to be told (AttemptEnded(token)) when End ends the
// attempt. It returns false, registering nothing, when End has already
// been called. A watcher unregisters with Unwatch once it no longer needs
// to know. Watchers are compared as interface values (Unwatch finds w by
// ==), so w must be of a comparable type: a pointer, as sshconn's is.
func (a *Attempt) Watch(w AttemptWatcher, token uint64) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.ended {
		return false
	}
	for i := range a.watched {
		if a.watched[i].w == nil {
			a.watched[i] = attemptWatch{w, token}
			return true
		}
	}
	a.more = append(a.more, attemptWatch{w, token})
	return true
}

// Unwatch removes w's registration with token, if it is still there.
func (a *Attempt) Unwatch(w AttemptWatcher, token uint64) {
	a.mu.Lock()
	defer a.mu.Unlock()
	aw := attemptWatch{w, token}
	for i := range a.watched {
		if a.watched[i] == aw {
			a.watched[i] = attemptWatch{}
			return
		}
	}
	for i := range a.more {
		if a.more[i] == aw {
			a.more = append(a.more[:i], a.more[i+1:]...)
			return
		}
	}
}
