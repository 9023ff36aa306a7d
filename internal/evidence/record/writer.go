package record

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/provadev/prova/engine/event"
	"github.com/provadev/prova/internal/evidence/wire"
	"github.com/provadev/prova/internal/redact"
)

// Writer builds a run record from events. It is an event.Observer, safe
// for concurrent use. Events observed after Close are ignored.
type Writer struct {
	mu       sync.Mutex
	dir      string
	events   *os.File
	now      func() time.Time
	err      error // first error writing events or raw files
	onFail   func(error)
	closed   bool
	closeErr error

	*builder
	store    *blobStore // raw blobs written, and their compression
	rawBytes int64      // blob bytes written so far (compressed)

	// The trail's group commit (commit.go): lines appended to pend under
	// mu, written by one goroutine at a time outside it.
	pend     []byte    // lines appended, not yet taken by a writer
	spare    []byte    // the other batch's buffer, reused
	appended uint64    // lines appended so far
	written  uint64    // lines appended whose write has returned
	writing  bool      // a batch is being written, outside mu
	wrote    sync.Cond // broadcast, L is &mu, when a batch's write returns
	// result is hostResult's copy of a result without its outputs, reused:
	// the host-step is held encoded, so the copy is dropped once encoded.
	result    map[string]any
	runRawCap int64 // a test's MaxRunRawBytes; 0 for the constant
}

// Create makes the record directory root/<meta.RunID> (a new run ID when
// empty), opens events.jsonl and writes a first run.json with status
// "running", so that even a crashed run leaves a readable record. root is
// the directory holding the runs, usually DefaultRoot.
func Create(root string, meta Meta, r *redact.Redactor) (*Writer, error) {
	now := time.Now
	if meta.Started.IsZero() {
		meta.Started = now()
	}
	if meta.RunID == "" {
		meta.RunID = NewRunID(meta.Started)
	}
	if meta.PID == 0 {
		meta.PID = os.Getpid()
	}
	if !filepath.IsLocal(meta.RunID) || filepath.Base(meta.RunID) != meta.RunID {
		return nil, fmt.Errorf("create run record: invalid run ID %q", meta.RunID)
	}
	if err := os.MkdirAll(root, 0o755); err != nil {
		return nil, fmt.Errorf("create run record: %w", err)
	}
	dir := filepath.Join(root, meta.RunID)
	if err := os.Mkdir(dir, 0o700); err != nil {
		return nil, fmt.Errorf("create run record: %w", err)
	}
	f, err := os.OpenFile(filepath.Join(dir, eventsFile), os.O_CREATE|os.O_EXCL|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return nil, fmt.Errorf("create run record: %w", err)
	}
	meta.Runbook = r.String(meta.Runbook)
	meta.Inventory = r.String(meta.Inventory)
	meta.Baseline = r.String(meta.Baseline)
	if v, ok := r.Any(meta.Vars).(map[string]any); ok {
		meta.Vars = v
	}
	meta.Hosts = r.Any(append([]string(nil), meta.Hosts...)).([]string)
	w := &Writer{
		dir:     dir,
		events:  f,
		now:     now,
		builder: newBuilder(r, Record{Version: Version, Meta: meta, Status: StatusRunning}),
		store:   newBlobStore(),
	}
	w.wrote.L = &w.mu
	w.held = map[string]map[string]heldResult{}
	if err := w.writeRunFile(); err != nil {
		f.Close()
		return nil, fmt.Errorf("create run record: %w", err)
	}
	// The first line of events.jsonl is the meta, so that a record whose
	// run.json is lost or stale can be rebuilt from events.jsonl alone.
	if err := w.writeLine(metaLine{Type: metaType, Time: meta.Started.UTC().Format(time.RFC3339Nano), Version: Version, Meta: meta}); err != nil {
		f.Close()
		return nil, fmt.Errorf("create run record: %w", err)
	}
	return w, nil
}

// Dir returns the record's directory.
func (w *Writer) Dir() string { return w.dir }

// RunID returns the record's run ID.
func (w *Writer) RunID() string { return w.rec.Meta.RunID }

// OnFail sets a function called once, with the error, the first time
// writing the record fails (a full disk): the caller stops the run
// before its next change. It is called with the Writer's lock held and
// must not call back into the Writer.
func (w *Writer) OnFail(f func(error)) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.onFail = f
}

// Err returns the first error met writing the record.
func (w *Writer) Err() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.err
}

// Observe folds e into the record and appends it to events.jsonl, in the
// record's own form: per-line output and progress events are left out
// (the outputs are kept whole in raw/), and a finished host-step is
// written as the HostResult run.json holds, pointing at its raw blobs.
func (w *Writer) Observe(e event.Event) {
	e = event.Value(e)
	switch e.(type) {
	case event.Output, event.Progress:
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		return
	}
	if hf, ok := e.(event.HostFinished); ok {
		// The result is encoded once, for its line and for run.json,
		// and held encoded (held.go), not as a HostResult.
		l := hostLine{Type: hf.Kind(), at: w.now().UTC(),
			Step: w.red.String(hf.Step), Host: w.red.String(hf.Host), HostResult: w.hostResult(hf)}
		js, err := w.appendHostLine(&l)
		w.setHeld(hf.Step, hf.Host, newHeld(&l.HostResult, js))
		if len(w.result) > 64 {
			w.result = nil // a rare wide result's map is not kept
		} else {
			clear(w.result)
		}
		if err != nil {
			w.fail(err)
			return
		}
		w.commit(w.appended)
		return
	}
	w.fold(e)
	b, err := wire.AppendEvent(w.pend, e, w.now(), w.red)
	if err != nil {
		w.fail(err)
		return
	}
	w.pend = b
	w.appended++
	w.commit(w.appended)
}

func (w *Writer) fail(err error) {
	if w.err == nil {
		w.err = err
		if w.onFail != nil {
			w.onFail(err)
		}
	}
}

// hostResult keeps a finished host's result, moving stdout, stderr and
// evidence to raw blobs. Everything is redacted, then capped. The result
// map is w.result (or the redactor's copy of it): good until Observe
// clears it, after the encoding.
func (w *Writer) hostResult(e event.HostFinished) HostResult {
	r := w.red
	msg, _ := cut(r.String(e.Message), MaxValueBytes)
	hr := HostResult{
		Status:      e.Status,
		Message:     msg,
		DurationS:   e.Duration.Seconds(),
		Severity:    e.Severity,
		Diagnostics: wire.DiagnosticsJSON(e.Diagnostics, r),
	}
	if len(hr.Diagnostics) == 0 {
		hr.Diagnostics = nil
	}
	for _, c := range e.Checks {
		hr.Checks = append(hr.Checks, event.Check{
			Name: r.String(c.Name), Measured: r.String(c.Measured), Threshold: r.String(c.Threshold),
			Verdict: c.Verdict, Message: r.String(c.Message),
		})
	}
	if e.Result != nil {
		if w.result == nil {
			w.result = make(map[string]any, len(e.Result))
		}
		hr.Result = w.result // emptied by Observe once encoded
		for k, v := range e.Result {
			hr.Result[k] = v
		}
	}
	var raw map[string]string // most host-steps store no output
	step := r.String(e.Step)
	keep := func(name, content string) {
		p, cutOff := w.storeRaw(step, name, r.String(content))
		if raw == nil {
			raw = map[string]string{}
		}
		raw[name] = p
		if cutOff {
			hr.Truncated = append(hr.Truncated, name)
		}
	}
	for _, stream := range []string{"stdout", "stderr"} {
		if s, ok := hr.Result[stream].(string); ok {
			delete(hr.Result, stream)
			if s != "" {
				keep(stream, s)
			}
		}
	}
	for _, name := range sortedKeys(e.Evidence) {
		n, _ := cut(r.String(name), 512)
		keep(n, e.Evidence[name])
	}
	if m, ok := r.Any(hr.Result).(map[string]any); ok {
		hr.Result = cutValues(m).(map[string]any)
	}
	if len(raw) > 0 {
		hr.Raw = raw
	}
	return hr
}

// Close finishes the record: it writes run.json (atomically: a temporary
// file renamed over the old one) and replaces events.jsonl with
// events.jsonl.gz (the same way), both synced. status is the
// run's outcome ("ok", "failed", "interrupted"...); empty derives it from
// the events: aborted, failed or ok. Steps started but not finished on all
// their hosts are recorded as half-done, in Aborted, whatever the status.
// Only the first call has an effect; later calls return its error.
func (w *Writer) Close(status string) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	// The lines pending are written first, and a batch in flight waited
	// for, before events.jsonl is closed.
	w.drain()
	if w.closed {
		return w.closeErr
	}
	w.closed = true
	rec := &w.rec
	if rec.Finished.IsZero() {
		rec.Finished = w.now()
	}
	if rec.DurationS == 0 && !rec.Meta.Started.IsZero() {
		rec.DurationS = rec.Finished.Sub(rec.Meta.Started).Seconds()
	}
	w.finish(status)
	errs := []error{w.err}
	// run.json and the trail's compressed copy are written at the same
	// time, each synced before its rename, so their fsyncs overlap. The
	// plain trail is synced only when it stays: compressEvents syncs the
	// copy before it removes the plain file. A run.json that fails
	// leaves the one saying "running", which Load rebuilds from the
	// trail, plain or compressed.
	compress := w.err == nil // a trail missing lines stays plain
	var trailErr error
	var compressing sync.WaitGroup
	if compress {
		compressing.Go(func() { trailErr = compressEvents(w.dir) })
	}
	if err := w.writeRunFile(); err != nil {
		errs = append(errs, err)
	}
	compressing.Wait()
	if !compress || trailErr != nil {
		errs = append(errs, trailErr)
		if err := w.events.Sync(); err != nil {
			errs = append(errs, fmt.Errorf("sync %s: %w", eventsFile, err))
		}
	}
	if err := w.events.Close(); err != nil {
		errs = append(errs, fmt.Errorf("close %s: %w", eventsFile, err))
	}
	if err := errors.Join(errs...); err != nil {
		w.closeErr = fmt.Errorf("run record %s: %w", w.dir, err)
	}
	return w.closeErr
}
