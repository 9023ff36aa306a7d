package apply

import (
	"bytes"
	"context"
	"io"
	"io/fs"
	"sync"

	"github.com/provadev/prova/engine/event"
	"github.com/provadev/prova/engine/module"
)

// streamingHost passes every line a command prints to the observer as an
// Output event, besides the module's own writers.
type streamingHost struct {
	module.Host
	step string
	obs  event.Observer
}

func (h *streamingHost) Run(ctx context.Context, cmd string, stdin io.Reader, stdout, stderr io.Writer) (int, error) {
	ow := &lineWriter{emit: func(l string) { h.obs.Observe(event.Output{Step: h.step, Host: h.Name(), Stream: "stdout", Line: l}) }}
	ew := &lineWriter{emit: func(l string) { h.obs.Observe(event.Output{Step: h.step, Host: h.Name(), Stream: "stderr", Line: l}) }}
	rc, err := h.Host.Run(ctx, cmd, stdin, tee(stdout, ow), tee(stderr, ew))
	ow.Flush()
	ew.Flush()
	return rc, err
}

func (h *streamingHost) Put(ctx context.Context, path string, r io.Reader, mode fs.FileMode) error {
	return h.Host.Put(ctx, path, r, mode)
}

func tee(w io.Writer, lw *lineWriter) io.Writer {
	if w == nil {
		return lw
	}
	return io.MultiWriter(w, lw)
}

// lineWriter buffers partial lines and emits whole ones.
type lineWriter struct {
	mu   sync.Mutex
	buf  []byte
	emit func(string)
}

func (w *lineWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf = append(w.buf, p...)
	for {
		i := bytes.IndexByte(w.buf, '\n')
		if i < 0 {
			break
		}
		w.emit(string(bytes.TrimSuffix(w.buf[:i], []byte("\r"))))
		w.buf = w.buf[i+1:]
	}
	if len(w.buf) > 64<<10 { // an endless line: emit what we have
		w.emit(string(w.buf))
		w.buf = w.buf[:0]
	}
	return len(p), nil
}

func (w *lineWriter) Flush() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if len(w.buf) > 0 {
		w.emit(string(w.buf))
		w.buf = nil
	}
}
