package sshconn

import (
	"context"
	"io"
	"sync"
	"time"

	"github.com/provadev/prova/engine/module"
	"golang.org/x/crypto/ssh"
)

// cmdWatch is what Run keeps for one running command: what ends it early
// (its context's end: the step's timeout, the run's cancellation) and the
// two signals between the kill and Run, plus the writers it hands
// x/crypto/ssh. Each connection keeps its watches (Conn.getWatch), at most
// one per session slot, and reuses them from command to command, so that
// a command costs no allocation of ours for them.
//
// A command whose context is a module.Attempt (the engine's attempt of a
// step) is watched by the watch itself, with no registration per command:
// the attempt's parent through one context.AfterFunc the watch keeps for
// as long as the parent's Done channel stays the same (the run's context,
// for every command of a run), the deadline through the watch's own timer,
// reset per command, and the attempt's End through Attempt.Watch. Any
// other context is watched with a context.AfterFunc per command.
//
// The signals are buffered channels that are never closed, so that they
// can be used again: finished carries one token from Run once the command
// has ended (the kill, if it is still waiting out its grace, stops
// waiting), killed one token from the kill once the command is killed and
// its session closed. Run sends and receives them only when the kill ran,
// and drains finished before the watch goes back, so that a reused watch
// starts empty.
type cmdWatch struct {
	c   *Conn
	cl  *ssh.Client
	s   *ssh.Session
	tag runTag

	finished chan struct{}
	killed   chan struct{}
	onCancel func() // w.cancelled, made once: the per-command AfterFunc's

	out    markWrites // stdout, marked so copyOut tells its errors apart
	errOut bufWriter  // stderr, with copyPooled's ReadFrom

	// An Attempt's command (arm, disarm). mu guards the rest.
	mu       sync.Mutex
	state    watchState
	gen      uint64 // the command's number, the token given to Attempt.Watch
	cause    error  // why the command is being killed
	deadline time.Time
	timer    *time.Timer // fires onDeadline; made on the first deadline
	parent   context.Context
	pdone    <-chan struct{} // parent's Done: the registration's key
	unreg    func() bool     // stops the registration with parent
}

type watchState uint8

const (
	watchIdle    watchState = iota
	watchRunning            // an Attempt's command runs: a kill may start
	watchKilling            // the kill started: Run waits for killed
)

func newCmdWatch() *cmdWatch {
	w := &cmdWatch{finished: make(chan struct{}, 1), killed: make(chan struct{}, 1)}
	w.onCancel = w.cancelled
	return w
}

// getWatch returns a watch of c's for command tag on c's client cl.
func (c *Conn) getWatch(cl *ssh.Client, tag runTag) *cmdWatch {
	c.mu.Lock()
	var w *cmdWatch
	if n := len(c.watches); n > 0 {
		w, c.watches = c.watches[n-1], c.watches[:n-1]
	}
	c.mu.Unlock()
	if w == nil {
		w = newCmdWatch()
	}
	w.c, w.cl, w.tag = c, cl, tag
	return w
}

// put gives w back to its connection, holding nothing of the command it
// watched; once the connection is closed, w is let go instead, its
// registration with its last parent stopped.
func (w *cmdWatch) put() {
	select {
	case <-w.finished: // the kill returned before it read the token
	default:
	}
	c := w.c
	w.c, w.cl, w.s, w.cause = nil, nil, nil, nil
	w.out, w.errOut = markWrites{}, bufWriter{}
	c.mu.Lock()
	if !c.closed {
		c.watches = append(c.watches, w)
		c.mu.Unlock()
		return
	}
	c.mu.Unlock()
	w.release()
}

// release stops w's registration with its parent and its timer: the
// connection that kept it is closed.
func (w *cmdWatch) release() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.unreg != nil {
		w.unreg()
	}
	w.unreg, w.parent, w.pdone = nil, nil, nil
	if w.timer != nil {
		w.timer.Stop()
	}
}

// stdout is the writer copyOut copies the command's stdout to: w, or
// io.Discard when w is nil, its errors marked.
func (w *cmdWatch) stdout(out io.Writer) io.Writer {
	if out == nil {
		out = io.Discard
	}
	w.out = markWrites{out}
	return &w.out
}

// stderr is what the session copies stderr to: pooledCopy's writer,
// kept in w rather than made for every command.
func (w *cmdWatch) stderr(errOut io.Writer) io.Writer { return pooledCopyVia(errOut, &w.errOut) }

// cancelled kills the remote command, closes the session, which ends
// Run's copy and wait, and then tells Run it is done. It runs in a
// goroutine of its own: AfterFunc's, the timer's, or one started for it.
func (w *cmdWatch) cancelled() {
	w.c.kill(w.cl, w.s, w.tag.String(), w.finished)
	w.s.Close()
	w.killed <- struct{}{}
}

// arm watches the started command for the end of its Attempt a: a's
// parent, a's deadline and a's End. A command whose attempt has already
// ended is killed at once, as context.AfterFunc would.
func (w *cmdWatch) arm(a *module.Attempt) {
	parent := a.Parent()
	pd := parent.Done()
	w.mu.Lock()
	w.gen++
	gen := w.gen
	w.state, w.cause, w.parent = watchRunning, nil, parent
	if pd != w.pdone {
		if w.unreg != nil {
			w.unreg()
		}
		w.unreg, w.pdone = nil, pd
		if pd != nil {
			w.unreg = context.AfterFunc(parent, func() { w.onParent(pd) })
		}
	}
	if d, ok := a.Deadline(); ok {
		w.deadline = d
		if w.timer == nil {
			w.timer = time.AfterFunc(time.Until(d), w.onDeadline)
		} else {
			w.timer.Reset(time.Until(d))
		}
	} else {
		w.deadline = time.Time{}
	}
	w.mu.Unlock()
	select {
	case <-pd: // the parent ended before the registration could tell
		w.onParent(pd)
		return
	default:
	}
	if !a.Watch(w, gen) {
		w.AttemptEnded(gen)
	}
}

// disarm stops watching the command of Attempt a once it has ended, and
// says whether a kill started (Run then waits for it).
func (w *cmdWatch) disarm(a *module.Attempt) bool {
	w.mu.Lock()
	killing := w.state == watchKilling
	gen := w.gen
	w.state = watchIdle
	if w.timer != nil {
		w.timer.Stop()
	}
	w.mu.Unlock()
	a.Unwatch(w, gen)
	return killing
}

// start moves a running command to its kill, with cause; it reports
// false when the command is not (or no longer) running, or when gen is
// not its number (a watch's earlier command).
func (w *cmdWatch) start(gen uint64, cause func() error) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.state != watchRunning || gen != w.gen {
		return false
	}
	w.state, w.cause = watchKilling, cause()
	return true
}

// onParent runs (in AfterFunc's goroutine, or arm's check) when the
// parent whose Done channel is pd has ended.
func (w *cmdWatch) onParent(pd <-chan struct{}) {
	w.mu.Lock()
	ok := w.state == watchRunning && w.pdone == pd
	gen, parent := w.gen, w.parent
	w.mu.Unlock()
	if ok && w.start(gen, func() error { return context.Cause(parent) }) {
		go w.cancelled()
	}
}

// onDeadline runs in the timer's goroutine. A timer of an earlier command
// that fired as it was stopped finds the command it watches gone, or a
// deadline not reached yet.
func (w *cmdWatch) onDeadline() {
	w.mu.Lock()
	ok := w.state == watchRunning && !w.deadline.IsZero() && !time.Now().Before(w.deadline)
	gen := w.gen
	w.mu.Unlock()
	if ok && w.start(gen, deadlineExceeded) {
		w.cancelled()
	}
}

func deadlineExceeded() error { return context.DeadlineExceeded }
func cancelledErr() error     { return context.Canceled }

// AttemptEnded is module.AttemptWatcher's: the attempt's End (the engine
// is done with it) ends the command it still runs.
func (w *cmdWatch) AttemptEnded(gen uint64) {
	if w.start(gen, cancelledErr) {
		go w.cancelled()
	}
}
