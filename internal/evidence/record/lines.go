package record

import (
	"bytes"
	"encoding/json"
	"fmt"
	"time"
)

// The record's own lines in events.jsonl, beside the events it writes in
// the wire format of prova --json.

// metaType is the type of the first line: the run's meta.
const metaType = "record_meta"

type metaLine struct {
	Type    string `json:"type"`
	Time    string `json:"time"`
	Version int    `json:"version"`
	Meta    Meta   `json:"meta"`
}

// hostLine is a finished host-step as the record keeps it.
type hostLine struct {
	Type string `json:"type"`
	Time string `json:"time"`
	// at, when Time is empty, is the time appendHostStep writes in
	// RFC 3339 with nanoseconds, as Time would hold it, without making
	// the string (the Writer's lines).
	at   time.Time
	Step string `json:"step"`
	Host string `json:"host"`
	HostResult
}

func (w *Writer) writeLine(v any) error {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return fmt.Errorf("encode %s line: %w", eventsFile, err)
	}
	if _, err := w.events.Write(b.Bytes()); err != nil {
		return fmt.Errorf("write %s: %w", eventsFile, err)
	}
	return nil
}

// appendHostLine appends a finished host-step's line, encoded by
// appendHostStep, to the lines pending (the caller holds w.mu and
// commits it) and returns its HostResult's encoding for run.json; nil,
// with the error, when it could not be encoded (nothing is appended).
func (w *Writer) appendHostLine(l *hostLine) ([]byte, error) {
	b, result, err := appendHostStep(w.pend, l)
	if err != nil {
		return nil, fmt.Errorf("encode %s line: %w", eventsFile, err)
	}
	w.pend = b
	w.appended++
	return result, nil
}
