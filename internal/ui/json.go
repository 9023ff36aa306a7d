package ui

import (
	"io"
	"sync"
	"time"

	"github.com/provadev/prova/engine/event"
	"github.com/provadev/prova/internal/evidence/findings"
	"github.com/provadev/prova/internal/evidence/wire"
	"github.com/provadev/prova/internal/redact"
)

// JSON writes one JSON object per event and line (see wire.MarshalEvent).
// Per-line command output ("output" events) is left out unless WithOutput
// asks for it; after run_finished comes one "summary" event listing the
// failed and warned hosts (see Summary). It is an event.Observer, safe for
// concurrent use.
type JSON struct {
	mu     sync.Mutex
	w      io.Writer
	red    *redact.Redactor
	now    func() time.Time
	err    error
	output bool
	found  *findings.Collector
}

// NewJSON returns a JSON-lines observer writing to w, redacting with r.
func NewJSON(w io.Writer, r *redact.Redactor) *JSON {
	return &JSON{w: w, red: r, now: time.Now, found: findings.NewCollector()}
}

// WithClock sets the clock that stamps events carrying no time of their
// own, and returns j. For tests.
func (j *JSON) WithClock(now func() time.Time) *JSON {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.now = now
	return j
}

// WithOutput makes j write "output" events (every line a command printed),
// as prova --json-output does, and returns j.
func (j *JSON) WithOutput(on bool) *JSON {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.output = on
	return j
}

// Observe writes e as one line. Errors are kept for Err.
func (j *JSON) Observe(e event.Event) {
	e = event.Value(e)
	if _, ok := e.(event.Output); ok && !j.outputOn() {
		return
	}
	j.mu.Lock()
	if _, ok := e.(event.RunStarted); ok {
		j.found = findings.NewCollector() // one summary per run
	}
	found := j.found
	j.mu.Unlock()
	found.Observe(e)
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.err != nil {
		return
	}
	j.write(e)
	if rf, ok := e.(event.RunFinished); ok {
		j.write(j.summary(rf))
	}
}

func (j *JSON) outputOn() bool {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.output
}

func (j *JSON) write(e event.Event) {
	if j.err != nil {
		return
	}
	b, err := wire.MarshalEvent(e, j.now(), j.red)
	if err == nil {
		_, err = j.w.Write(b)
	}
	j.err = err
}

// Err returns the first error met encoding or writing an event.
func (j *JSON) Err() error {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.err
}
