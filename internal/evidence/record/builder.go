package record

import (
	"github.com/provadev/prova/engine/event"
	"github.com/provadev/prova/internal/redact"
)

// builder folds events into a Record. The Writer feeds it live events;
// Load feeds it the lines of events.jsonl when the run never closed its
// record. It does no I/O.
type builder struct {
	red       *redact.Redactor
	rec       Record
	stepOrder []string       // from RunStarted
	stepIdx   map[string]int // index in rec.Steps
	started   map[string]bool
	failed    bool
	finished  bool                   // RunFinished seen
	tallies   map[string]event.Tally // from RunFinished
	v2        bool                   // replaying a version 2 events.jsonl
	// held holds the Writer's host-steps per step, encoded (held.go);
	// nil for Load's builder, which keeps HostResult values in Step.Hosts.
	held map[string]map[string]heldResult
}

func newBuilder(r *redact.Redactor, rec Record) *builder {
	return &builder{red: r, rec: rec, stepIdx: map[string]int{}, started: map[string]bool{}}
}

// step returns the record of a step, adding it on first sight.
func (w *builder) step(name string) *Step {
	i, ok := w.stepIdx[name]
	if !ok {
		i = len(w.rec.Steps)
		w.stepIdx[name] = i
		if w.held != nil {
			w.held[name] = map[string]heldResult{}
			w.rec.Steps = append(w.rec.Steps, Step{Step: name})
		} else {
			w.rec.Steps = append(w.rec.Steps, Step{Step: name, Hosts: map[string]HostResult{}})
		}
	}
	return &w.rec.Steps[i]
}

// setHost records a finished host-step.
func (w *builder) setHost(step, host string, hr HostResult) {
	w.started[step] = true
	w.step(step).Hosts[host] = hr
}

// setHeld records a finished host-step of the Writer's.
func (w *builder) setHeld(step, host string, h heldResult) {
	w.started[step] = true
	w.step(step)
	w.held[step][host] = h
}

// fold applies every event but HostFinished, which the caller turns into
// a HostResult and passes to setHost.
func (w *builder) fold(e event.Event) {
	r := w.red
	switch e := event.Value(e).(type) {
	case event.RunStarted:
		w.stepOrder = e.Steps
		w.rec.PlannedSteps = append([]string(nil), e.Steps...)
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
		if held := w.held[e.Step]; held != nil {
			if _, ok := held[e.Host]; !ok {
				held[e.Host] = heldResult{js: unfinishedJSON, status: Unfinished}
			}
		} else if _, ok := s.Hosts[e.Host]; !ok {
			s.Hosts[e.Host] = HostResult{Status: Unfinished}
		}
	case event.StepFinished:
		s := w.step(e.Step)
		s.Finished = true
		s.DurationS = e.Duration.Seconds()
	case event.PlannedHost:
		s := w.step(e.Step)
		if s.Plans == nil {
			s.Plans = map[string]Plan{}
		}
		p := Plan{Action: string(e.Action), Summary: r.String(e.Summary)}
		for _, c := range e.Changes {
			p.Changes = append(p.Changes, event.Change{Name: r.String(c.Name), From: r.String(c.From), To: r.String(c.To)})
		}
		s.Plans[e.Host] = p
	case event.HostDropped:
		w.rec.Dropped = append(w.rec.Dropped, Dropped{Step: e.Step, Host: e.Host, Reason: r.String(e.Reason)})
	case event.Warning:
		msg, _ := cut(r.String(e.Message), MaxValueBytes)
		w.rec.Warnings = append(w.rec.Warnings, event.Warning{Host: e.Host, Message: msg})
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

// finish completes the record: status ("" derives it from the events:
// aborted, failed or ok), half-done steps, tallies and assertions.
func (w *builder) finish(status string) {
	rec := &w.rec
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
