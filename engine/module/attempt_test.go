package module_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/provadev/prova/engine/module"
)

type ctxKey struct{}

// closed reports whether ch is closed, waiting up to a second for it.
func closed(ch <-chan struct{}) bool {
	select {
	case <-ch:
		return true
	case <-time.After(time.Second):
		return false
	}
}

// An attempt says what context.WithDeadline would, whether or not its
// Done channel was asked for before it ended: Err, Done, Cause, Value.
func TestAttemptEndsAsWithDeadline(t *testing.T) {
	cause := errors.New("operator pressed Ctrl-C")
	for _, early := range []bool{false, true} { // Done asked before the end
		for _, how := range []string{"deadline", "parent", "end"} {
			parent, cancel := context.WithCancelCause(context.WithValue(context.Background(), ctxKey{}, "v"))
			d := time.Now().Add(time.Hour)
			if how == "deadline" {
				d = time.Now().Add(20 * time.Millisecond)
			}
			a := module.NewAttempt(parent, d)
			if got, ok := a.Deadline(); !ok || !got.Equal(d) {
				t.Errorf("%s: Deadline %v %v, want %v", how, got, ok, d)
			}
			if a.Err() != nil || a.Value(ctxKey{}) != "v" {
				t.Fatalf("%s: a new attempt: Err %v, Value %v", how, a.Err(), a.Value(ctxKey{}))
			}
			var done <-chan struct{}
			if early {
				done = a.Done()
			}
			wantErr, wantCause := context.DeadlineExceeded, error(context.DeadlineExceeded)
			switch how {
			case "deadline":
				time.Sleep(30 * time.Millisecond)
			case "parent":
				cancel(cause)
				wantErr, wantCause = context.Canceled, cause
			case "end":
				a.End()
				wantErr, wantCause = context.Canceled, context.Canceled
			}
			if err := a.Err(); err != wantErr {
				t.Errorf("%s (Done early %v): Err %v, want %v", how, early, err, wantErr)
			}
			if got := context.Cause(a); got != wantCause {
				t.Errorf("%s (Done early %v): Cause %v, want %v", how, early, got, wantCause)
			}
			if done == nil {
				done = a.Done()
			}
			if !closed(done) {
				t.Errorf("%s (Done early %v): Done not closed", how, early)
			}
			if err := a.Err(); err != wantErr || context.Cause(a) != wantCause || a.Value(ctxKey{}) != "v" {
				t.Errorf("%s (Done early %v): after Done: Err %v, Cause %v, Value %v", how, early, err, context.Cause(a), a.Value(ctxKey{}))
			}
			// A context derived from it ends with it.
			child, stop := context.WithCancel(a)
			if !closed(child.Done()) || !errors.Is(child.Err(), wantErr) {
				t.Errorf("%s (Done early %v): a child: Err %v", how, early, child.Err())
			}
			stop()
			a.End()
			cancel(nil)
		}
	}
}

// A deadline reached with nothing asking for Done: Err says so at once,
// and the parent's later end does not change it.
func TestAttemptErrStaysTheFirst(t *testing.T) {
	parent, cancel := context.WithCancel(context.Background())
	a := module.NewAttempt(parent, time.Now().Add(-time.Millisecond))
	if err := a.Err(); err != context.DeadlineExceeded {
		t.Fatalf("past deadline: Err %v", err)
	}
	cancel()
	a.End()
	if err := a.Err(); err != context.DeadlineExceeded || context.Cause(a) != context.DeadlineExceeded {
		t.Errorf("after the parent's cancel and End: Err %v, Cause %v", err, context.Cause(a))
	}
	if !closed(a.Done()) {
		t.Error("Done not closed")
	}
}

// The parent's sooner deadline is the attempt's; no deadline at all is
// none.
func TestAttemptDeadlineOfItsParent(t *testing.T) {
	pd := time.Now().Add(time.Minute)
	parent, cancel := context.WithDeadline(context.Background(), pd)
	defer cancel()
	if d, ok := module.NewAttempt(parent, time.Now().Add(time.Hour)).Deadline(); !ok || !d.Equal(pd) {
		t.Errorf("under a sooner parent deadline: %v %v, want %v", d, ok, pd)
	}
	a := module.NewAttempt(context.Background(), time.Time{})
	if _, ok := a.Deadline(); ok {
		t.Error("no deadline: Deadline reports one")
	}
	time.Sleep(time.Millisecond)
	if a.Err() != nil {
		t.Errorf("no deadline: Err %v", a.Err())
	}
	a.End()
	if a.Err() != context.Canceled || !closed(a.Done()) {
		t.Errorf("no deadline, ended: Err %v", a.Err())
	}
}

type watcher struct{ got []uint64 }

func (w *watcher) AttemptEnded(token uint64) { w.got = append(w.got, token) }

// End tells the watchers still registered, with their tokens, once; a
// watch after End is refused.
func TestAttemptWatch(t *testing.T) {
	a := module.NewAttempt(context.Background(), time.Now().Add(time.Hour))
	ws := []*watcher{{}, {}, {}, {}}
	for i, w := range ws {
		if !a.Watch(w, uint64(i+1)) {
			t.Fatalf("Watch %d refused", i)
		}
	}
	a.Unwatch(ws[1], 2)
	a.Unwatch(ws[3], 4)
	a.Unwatch(ws[0], 99) // not its token: stays
	a.End()
	a.End()
	want := [][]uint64{{1}, nil, {3}, nil}
	for i, w := range ws {
		if len(w.got) != len(want[i]) || (len(w.got) == 1 && w.got[0] != want[i][0]) {
			t.Errorf("watcher %d told %v, want %v", i, w.got, want[i])
		}
	}
	if a.Watch(&watcher{}, 5) {
		t.Error("Watch after End accepted")
	}
}
