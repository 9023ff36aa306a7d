package apply

import (
	"bytes"
	"context"
	"io"
	"io/fs"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/provadev/prova/engine/event"
	"github.com/provadev/prova/engine/module"
)

// streamingHost passes what a command prints to the observer as Output
// events, one per chunk of whole lines (see lineWriter), besides the
// module's own writers.
type streamingHost struct {
	module.Host
	step string
	obs  event.Observer
	// own is the output of the host-step's commands, made with the host:
	// a module runs its commands one after another, and each takes own
	// in turn (busy); a command that starts while another still runs
	// (a module running two at once) gets an output of its own.
	busy atomic.Bool
	own  runOutput
	// beat is the heartbeat of the host-step's first attempt, made with
	// the host (startHeartbeat); later attempts make their own.
	beat      heartbeat
	beatTaken bool
	// runs counts the commands running on the host (Run not returned):
	// the engine keeps the host for the next step only when none is.
	runs atomic.Int32
}

// newStreamingHost is a streaming host of step over h, to obs.
func newStreamingHost(h module.Host, step string, obs event.Observer) *streamingHost {
	return &streamingHost{Host: h, step: step, obs: obs}
}

// reset makes sh, kept from its host's previous step with no command
// running (keepHost), the streaming host of step over h. Its own output
// and heartbeat are set afresh when taken (Run, startHeartbeat).
func (h *streamingHost) reset(host module.Host, step string) {
	h.Host, h.step, h.beatTaken = host, step, false
}

func (h *streamingHost) Run(ctx context.Context, cmd string, stdin io.Reader, stdout, stderr io.Writer) (int, error) {
	h.runs.Add(1)
	defer h.runs.Add(-1)
	var o *runOutput
	if h.busy.CompareAndSwap(false, true) {
		o = &h.own
		*o = runOutput{}
		defer h.busy.Store(false)
	} else {
		o = &runOutput{} // one allocation for both streams' line writers and tees
	}
	name := h.Name()
	o.out = lineWriter{obs: h.obs, step: h.step, host: name, stream: "stdout"}
	o.err = lineWriter{obs: h.obs, step: h.step, host: name, stream: "stderr"}
	rc, err := h.Host.Run(ctx, cmd, stdin, o.outTee.to(stdout, &o.out), o.errTee.to(stderr, &o.err))
	o.out.Flush()
	o.err.Flush()
	return rc, err
}

func (h *streamingHost) Put(ctx context.Context, path string, r io.Reader, mode fs.FileMode) error {
	return h.Host.Put(ctx, path, r, mode)
}

// runOutput is what one command's output goes through: each stream's
// lineWriter and, when the module has a writer of its own, the tee to both.
type runOutput struct {
	out, err       lineWriter
	outTee, errTee tee
}

// tee writes to w, then to lw, as io.MultiWriter(w, lw) does.
type tee struct {
	w  io.Writer
	lw *lineWriter
}

// to returns the writer of a stream: lw alone when w is nil, else t set
// to write to both.
func (t *tee) to(w io.Writer, lw *lineWriter) io.Writer {
	if w == nil {
		return lw
	}
	t.w, t.lw = w, lw
	return t
}

func (t *tee) Write(p []byte) (int, error) {
	n, err := t.w.Write(p)
	if err == nil && n != len(p) {
		err = io.ErrShortWrite
	}
	if err != nil {
		return n, err
	}
	return t.lw.Write(p)
}

// maxLine is the longest partial line a lineWriter holds back: an endless
// line is emitted in pieces of this size.
const maxLine = 64 << 10

// lineWriter emits whole lines: every Write that completes one or more
// lines emits them all at once, as one chunk (see event.Output), and keeps
// the unfinished last line for the next Write. A command printing a
// thousand lines in one read from the connection costs one event, not a
// thousand.
type lineWriter struct {
	mu  sync.Mutex
	buf []byte // the unfinished line
	// Each chunk is an event.Output of this stream to obs.
	obs                event.Observer
	step, host, stream string
}

func (w *lineWriter) emit(text string) {
	w.obs.Observe(event.Output{Step: w.step, Host: w.host, Stream: w.stream, Line: text})
}

func (w *lineWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	n := len(p)
	if i := bytes.LastIndexByte(p, '\n'); i >= 0 {
		var text string
		if len(w.buf) == 0 {
			text = chunkText(p[:i])
		} else {
			w.buf = append(w.buf, p[:i]...)
			text = chunkText(w.buf)
			w.buf = w.buf[:0]
		}
		w.emit(text)
		p = p[i+1:]
	}
	w.buf = append(w.buf, p...)
	for len(w.buf) > maxLine { // an endless line: emit what we have
		w.emit(string(w.buf[:maxLine]))
		w.buf = append(w.buf[:0], w.buf[maxLine:]...)
	}
	return n, nil
}

// Flush emits the unfinished line, if any.
func (w *lineWriter) Flush() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if len(w.buf) > 0 {
		w.emit(chunkText(w.buf))
		w.buf = nil
	}
}

// chunkText returns lines (joined by newlines, without the last one) as a
// string with the carriage return at the end of each line removed.
func chunkText(lines []byte) string {
	if bytes.IndexByte(lines, '\r') < 0 {
		return string(lines)
	}
	s := strings.ReplaceAll(string(lines), "\r\n", "\n")
	return strings.TrimSuffix(s, "\r")
}
