package sshconn

import (
	"io"
	"sync"

	"golang.org/x/crypto/ssh"
)

// cmdWatch is what Run keeps for one running command: the cancellation
// callback it registers with context.AfterFunc and the two signals between
// that callback and Run, plus the writers it hands x/crypto/ssh. It is
// reused from command to command (cmdWatches), so that a command costs no
// allocation of ours for them: two channels, the callback's closure and
// two writers boxed into interfaces were five allocations per host-step,
// about as many as the AfterFunc registration itself makes.
//
// The signals are buffered channels that are never closed, so that they
// can be used again: finished carries one token from Run once the command
// has ended (the kill, if it is still waiting out its grace, stops
// waiting), killed one token from the callback once the command is killed
// and its session closed. Run sends and receives them only when the
// callback ran (AfterFunc's stop reported false), and drains finished
// before the watch goes back, so that a reused watch starts empty.
type cmdWatch struct {
	c   *Conn
	cl  *ssh.Client
	s   *ssh.Session
	tag runTag

	finished chan struct{}
	killed   chan struct{}
	onCancel func() // w.cancelled, made once

	out    markWrites // stdout, marked so copyOut tells its errors apart
	errOut bufWriter  // stderr, with copyPooled's ReadFrom
}

var cmdWatches = sync.Pool{New: func() any {
	w := &cmdWatch{finished: make(chan struct{}, 1), killed: make(chan struct{}, 1)}
	w.onCancel = w.cancelled
	return w
}}

// getWatch returns a watch for command tag on c's client cl.
func getWatch(c *Conn, cl *ssh.Client, tag runTag) *cmdWatch {
	w := cmdWatches.Get().(*cmdWatch)
	w.c, w.cl, w.tag = c, cl, tag
	return w
}

// put gives w back, holding nothing of the command it watched.
func (w *cmdWatch) put() {
	select {
	case <-w.finished: // the kill returned before it read the token
	default:
	}
	w.c, w.cl, w.s = nil, nil, nil
	w.out, w.errOut = markWrites{}, bufWriter{}
	cmdWatches.Put(w)
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

// cancelled runs (in AfterFunc's goroutine) when the command's context
// ends before the command does: it kills the remote command, closes the
// session, which ends Run's copy and wait, and then tells Run it is done.
func (w *cmdWatch) cancelled() {
	w.c.kill(w.cl, w.s, w.tag.String(), w.finished)
	w.s.Close()
	w.killed <- struct{}{}
}
