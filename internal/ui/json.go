package ui

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"sync"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/provadev/prova/engine/event"
	"github.com/provadev/prova/internal/redact"
)

// JSON writes one JSON object per event and line (see MarshalEvent). It is
// an event.Observer, safe for concurrent use.
type JSON struct {
	mu  sync.Mutex
	w   io.Writer
	red *redact.Redactor
	now func() time.Time
	err error
}

// NewJSON returns a JSON-lines observer writing to w, redacting with r.
func NewJSON(w io.Writer, r *redact.Redactor) *JSON {
	return &JSON{w: w, red: r, now: time.Now}
}

// WithClock sets the clock that stamps events carrying no time of their
// own, and returns j. For tests.
func (j *JSON) WithClock(now func() time.Time) *JSON {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.now = now
	return j
}

// Observe writes e as one line. Errors are kept for Err.
func (j *JSON) Observe(e event.Event) {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.err != nil {
		return
	}
	b, err := MarshalEvent(e, j.now(), j.red)
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

// MarshalEvent encodes e as one JSON line ending in a newline:
// {"type": e.Kind(), "time": ..., <the event's fields>}. "time" is the
// event's own time when it has one, else now, in RFC 3339 with
// nanoseconds. HostFinished diagnostics become a "diagnostics" array.
// Every string, keys included, is redacted with r.
func MarshalEvent(e event.Event, now time.Time, r *redact.Redactor) ([]byte, error) {
	e = event.Value(e)
	raw, err := json.Marshal(e)
	if err != nil {
		return nil, fmt.Errorf("encode %s event: %w", e.Kind(), err)
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var m map[string]any
	if err := dec.Decode(&m); err != nil {
		return nil, fmt.Errorf("encode %s event: %w", e.Kind(), err)
	}
	if red, ok := r.Any(m).(map[string]any); ok {
		m = red
	}
	if hf, ok := e.(event.HostFinished); ok && len(hf.Diagnostics) > 0 {
		m["diagnostics"] = DiagnosticsJSON(hf.Diagnostics, r)
	}
	if t, ok := m["time"].(string); !ok || t == "" || t == (time.Time{}).Format(time.RFC3339Nano) {
		m["time"] = now.UTC().Format(time.RFC3339Nano)
	}
	m["type"] = e.Kind()

	keys := make([]string, 0, len(m))
	for k := range m {
		if k != "type" && k != "time" {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	keys = append([]string{"type", "time"}, keys...)

	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	b.WriteByte('{')
	for i, k := range keys {
		if i > 0 {
			b.WriteByte(',')
		}
		if err := enc.Encode(k); err != nil {
			return nil, fmt.Errorf("encode %s event: %w", e.Kind(), err)
		}
		b.Truncate(b.Len() - 1) // Encode's newline
		b.WriteByte(':')
		if err := enc.Encode(m[k]); err != nil {
			return nil, fmt.Errorf("encode %s event field %s: %w", e.Kind(), k, err)
		}
		b.Truncate(b.Len() - 1)
	}
	b.WriteString("}\n")
	return b.Bytes(), nil
}

// Diagnostic is the JSON form of an hcl.Diagnostic.
type Diagnostic struct {
	Severity string `json:"severity"` // "error" or "warning"
	Summary  string `json:"summary"`
	Detail   string `json:"detail,omitempty"`
	Range    *Range `json:"range,omitempty"`
}

// Range is a span of a source file.
type Range struct {
	Filename string `json:"filename"`
	Start    Pos    `json:"start"`
	End      Pos    `json:"end"`
}

// Pos is a position in a source file; Line and Column count from 1, Byte
// from 0.
type Pos struct {
	Line   int `json:"line"`
	Column int `json:"column"`
	Byte   int `json:"byte"`
}

// DiagnosticsJSON converts diagnostics to their JSON form, redacted with r.
func DiagnosticsJSON(diags hcl.Diagnostics, r *redact.Redactor) []Diagnostic {
	out := make([]Diagnostic, 0, len(diags))
	for _, d := range diags {
		if d == nil {
			continue
		}
		sev := "error"
		if d.Severity == hcl.DiagWarning {
			sev = "warning"
		}
		j := Diagnostic{Severity: sev, Summary: r.String(d.Summary), Detail: r.String(d.Detail)}
		if s := d.Subject; s != nil {
			j.Range = &Range{
				Filename: r.String(s.Filename),
				Start:    Pos{s.Start.Line, s.Start.Column, s.Start.Byte},
				End:      Pos{s.End.Line, s.End.Column, s.End.Byte},
			}
		}
		out = append(out, j)
	}
	return out
}
