package record

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"

	"github.com/provadev/prova/engine/event"
)

// rebuild replays events.jsonl into a record: what a killed run had done
// up to its last complete line. A last line cut short by the kill is
// ignored; any other bad line is an error naming it.
func rebuild(dir string, start Record) (*Record, error) {
	f, name, err := openEvents(dir)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	start.Steps, start.Assertions, start.Tallies = nil, nil, nil
	b := newBuilder(nil, start)
	br := bufio.NewReaderSize(f, 1<<16)
	n, lines := 0, 0
	for {
		line, err := br.ReadBytes('\n')
		if err == io.EOF {
			break // a partial last line (no newline) is the kill's cut
		}
		if err != nil {
			return nil, err
		}
		n++
		line = bytes.TrimSpace(line)
		if len(line) == 0 {
			continue
		}
		if err := b.replay(line); err != nil {
			return nil, fmt.Errorf("%s line %d: %w", name, n, err)
		}
		lines++
	}
	status := ""
	reason := "the run never closed its record: prova was killed"
	if b.rec.Meta.PID > 0 {
		reason += fmt.Sprintf(" (pid %d), or is still running", b.rec.Meta.PID)
	} else {
		reason += ", or is still running"
	}
	if !b.finished {
		status = StatusIncomplete
		b.rec.Incomplete = true
		b.rec.IncompleteReason = fmt.Sprintf("%s; rebuilt from %d events in %s", reason, lines, name)
	}
	b.finish(status)
	if b.rec.Incomplete && b.rec.Aborted == nil {
		b.rec.Aborted = &Abort{Reason: "killed or still running"}
	}
	if b.rec.Incomplete {
		b.rec.Aborted.HalfDone = union(b.rec.Aborted.HalfDone, b.halfDoneAll())
	}
	return &b.rec, nil
}

// halfDoneAll lists the steps started and not finished, whatever ended
// the run.
func (w *builder) halfDoneAll() []string {
	var half []string
	for _, s := range w.rec.Steps {
		if w.started[s.Step] && !s.Finished {
			half = append(half, s.Step)
		}
	}
	return half
}

// replay folds one line of events.jsonl.
func (w *builder) replay(line []byte) error {
	var head struct {
		Type string `json:"type"`
	}
	if err := json.Unmarshal(line, &head); err != nil {
		return err
	}
	decode := func(e event.Event) error {
		if err := json.Unmarshal(line, e); err != nil {
			return fmt.Errorf("%s event: %w", head.Type, err)
		}
		w.fold(e)
		return nil
	}
	switch head.Type {
	case metaType:
		var m metaLine
		if err := json.Unmarshal(line, &m); err != nil {
			return err
		}
		w.rec.Meta = m.Meta
		w.v2 = true
		return nil
	case "host_finished":
		var h hostLine
		if err := json.Unmarshal(line, &h); err != nil {
			return fmt.Errorf("host_finished event: %w", err)
		}
		if !w.v2 {
			// A version 1 line: the event as prova --json writes it.
			var e event.HostFinished
			if err := json.Unmarshal(line, &e); err != nil {
				return fmt.Errorf("host_finished event: %w", err)
			}
			h.HostResult = HostResult{Status: e.Status, Message: e.Message, DurationS: e.Duration.Seconds(), Severity: e.Severity, Checks: e.Checks, Result: e.Result}
		}
		w.setHost(h.Step, h.Host, h.HostResult)
		return nil
	case "run_started":
		return decode(&event.RunStarted{})
	case "step_started":
		return decode(&event.StepStarted{})
	case "host_started":
		return decode(&event.HostStarted{})
	case "step_finished":
		return decode(&event.StepFinished{})
	case "planned":
		return decode(&event.PlannedHost{})
	case "host_dropped":
		return decode(&event.HostDropped{})
	case "aborted":
		return decode(&event.Aborted{})
	case "run_finished":
		return decode(&event.RunFinished{})
	case "warning":
		return decode(&event.Warning{})
	}
	return nil // output, progress, retry and types this prova does not know
}
