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
	red      *redact.Redactor
	events   *os.File
	now      func() time.Time
	err      error // first error writing events or raw files
	closed   bool
	closeErr error

	rec       Record
	stepOrder []string       // from RunStarted
	stepIdx   map[string]int // index in rec.Steps
	started   map[string]bool
	failed    bool
	finished  bool                   // RunFinished seen
	tallies   map[string]event.Tally // from RunFinished
	rawUsed   map[string]bool
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
		red:     r,
		events:  f,
		now:     now,
		rec:     Record{Version: Version, Meta: meta, Status: StatusRunning},
		stepIdx: map[string]int{},
		started: map[string]bool{},
		rawUsed: map[string]bool{},
	}
	if err := writeAtomic(dir, runFile, w.snapshot()); err != nil {
		f.Close()
		return nil, fmt.Errorf("create run record: %w", err)
	}
	return w, nil
}

// Dir returns the record's directory.
func (w *Writer) Dir() string { return w.dir }

// RunID returns the record's run ID.
func (w *Writer) RunID() string { return w.rec.Meta.RunID }

// Observe appends e to events.jsonl and folds it into the record.
func (w *Writer) Observe(e event.Event) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		return
	}
	if b, err := wire.MarshalEvent(e, w.now(), w.red); err != nil {
		w.fail(err)
	} else if _, err := w.events.Write(b); err != nil {
		w.fail(fmt.Errorf("write %s: %w", eventsFile, err))
	}
	w.fold(e)
}

func (w *Writer) fail(err error) {
	if w.err == nil {
		w.err = err
	}
}

// step returns the record of a step, adding it on first sight.
func (w *Writer) step(name string) *Step {
	i, ok := w.stepIdx[name]
	if !ok {
		i = len(w.rec.Steps)
		w.stepIdx[name] = i
		w.rec.Steps = append(w.rec.Steps, Step{Step: name, Hosts: map[string]HostResult{}})
	}
	return &w.rec.Steps[i]
}

func (w *Writer) fold(e event.Event) {
	r := w.red
	switch e := event.Value(e).(type) {
	case event.RunStarted:
		w.stepOrder = e.Steps
		if len(w.rec.Meta.Hosts) == 0 {
			w.rec.Meta.Hosts = r.Any(append([]string(nil), e.Hosts...)).([]string)
		}
		if w.rec.Meta.Mode == "" {
			w.rec.Meta.Mode = e.Mode
		}
	case event.StepStarted:
		s := w.step(e.Step)
		s.Module, s.Name = e.Module, e.Name
		w.started[e.Step] = true
	case event.HostStarted:
		s := w.step(e.Step)
		w.started[e.Step] = true
		if _, ok := s.Hosts[e.Host]; !ok {
			s.Hosts[e.Host] = HostResult{Status: Unfinished}
		}
	case event.HostFinished:
		w.started[e.Step] = true
		w.step(e.Step).Hosts[e.Host] = w.hostResult(e)
	case event.StepFinished:
		s := w.step(e.Step)
		s.Finished = true
		s.DurationS = e.Duration.Seconds()
	case event.PlannedHost:
		s := w.step(e.Step)
		if s.Plans == nil {
			s.Plans = map[string]Plan{}
		}
		p := Plan{Action: e.Action, Summary: r.String(e.Summary)}
		for _, c := range e.Changes {
			p.Changes = append(p.Changes, event.Change{Name: r.String(c.Name), From: r.String(c.From), To: r.String(c.To)})
		}
		s.Plans[e.Host] = p
	case event.HostDropped:
		w.rec.Dropped = append(w.rec.Dropped, Dropped{Step: e.Step, Host: e.Host, Reason: r.String(e.Reason)})
	case event.Warning:
		w.rec.Warnings = append(w.rec.Warnings, event.Warning{Host: e.Host, Message: r.String(e.Message)})
	case event.Aborted:
		w.rec.Aborted = &Abort{Reason: r.String(e.Reason), HalfDone: append([]string(nil), e.HalfDone...)}
	case event.RunFinished:
		w.finished = true
		w.tallies = e.Hosts
		w.failed = e.Failed
		w.rec.Finished = e.Time
		w.rec.DurationS = e.Duration.Seconds()
	}
}

// hostResult keeps a finished host's result, moving stdout, stderr and
// evidence to raw files.
func (w *Writer) hostResult(e event.HostFinished) HostResult {
	r := w.red
	hr := HostResult{
		Status:      e.Status,
		Message:     r.String(e.Message),
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
		hr.Result = make(map[string]any, len(e.Result))
		for k, v := range e.Result {
			hr.Result[k] = v
		}
	}
	raw := map[string]string{}
	for _, stream := range []string{"stdout", "stderr"} {
		if s, ok := hr.Result[stream].(string); ok {
			delete(hr.Result, stream)
			if s != "" {
				raw[stream] = w.writeRaw(e.Step, e.Host, stream, s)
			}
		}
	}
	for _, name := range sortedKeys(e.Evidence) {
		raw[r.String(name)] = w.writeRaw(e.Step, e.Host, name, e.Evidence[name])
	}
	if m, ok := r.Any(hr.Result).(map[string]any); ok {
		hr.Result = m
	}
	if len(raw) > 0 {
		hr.Raw = raw
	}
	return hr
}

// Close finishes the record: it writes run.json (atomically: a temporary
// file renamed over the old one) and closes events.jsonl. status is the
// run's outcome ("ok", "failed", "interrupted"...); empty derives it from
// the events: aborted, failed or ok. Steps started but not finished on all
// their hosts are recorded as half-done, in Aborted, whatever the status.
// Only the first call has an effect; later calls return its error.
func (w *Writer) Close(status string) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		return w.closeErr
	}
	w.closed = true
	w.finish(status)
	errs := []error{w.err}
	if err := writeAtomic(w.dir, runFile, w.snapshot()); err != nil {
		errs = append(errs, err)
	}
	if err := w.events.Sync(); err != nil {
		errs = append(errs, fmt.Errorf("sync %s: %w", eventsFile, err))
	}
	if err := w.events.Close(); err != nil {
		errs = append(errs, fmt.Errorf("close %s: %w", eventsFile, err))
	}
	if err := errors.Join(errs...); err != nil {
		w.closeErr = fmt.Errorf("run record %s: %w", w.dir, err)
	}
	return w.closeErr
}

// finish completes the record for Close.
func (w *Writer) finish(status string) {
	rec := &w.rec
	if rec.Finished.IsZero() {
		rec.Finished = w.now()
	}
	if rec.DurationS == 0 && !rec.Meta.Started.IsZero() {
		rec.DurationS = rec.Finished.Sub(rec.Meta.Started).Seconds()
	}
	if status == "" {
		switch {
		case rec.Aborted != nil:
			status = StatusAborted
		case w.failed || w.anyFailed():
			status = StatusFailed
		default:
			status = StatusOK
		}
	}
	rec.Status = status
	w.sortSteps()
	if half := w.halfDone(); len(half) > 0 || status == StatusInterrupted {
		if rec.Aborted == nil {
			rec.Aborted = &Abort{Reason: status}
		}
		rec.Aborted.HalfDone = union(rec.Aborted.HalfDone, half)
	}
	rec.Tallies = w.tallies
	if rec.Tallies == nil {
		rec.Tallies = w.countTallies()
	}
	rec.Assertions = w.assertions()
}
