package wire

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"time"

	"github.com/provadev/prova/engine/event"
	"github.com/provadev/prova/internal/redact"
)

// MarshalEvent encodes e as one JSON line ending in a newline:
// {"type": e.Kind(), "time": ..., <the event's fields>}. "time" is the
// event's own time when it has one, else now, in RFC 3339 with
// nanoseconds. HostFinished and PlannedHost diagnostics become a
// "diagnostics" array.
// Every string, keys included, is redacted with r.
func MarshalEvent(e event.Event, now time.Time, r *redact.Redactor) ([]byte, error) {
	return AppendEvent(nil, e, now, r)
}

// AppendEvent appends MarshalEvent's line to b, for a caller that keeps
// one buffer for every line it writes (the run record: a buffer per
// event was most of its allocations per host-step). On error b is
// returned as it was.
func AppendEvent(b []byte, e event.Event, now time.Time, r *redact.Redactor) ([]byte, error) {
	e = event.Value(e)
	if out, ok := appendEvent(b, e, now, r); ok {
		return out, nil
	}
	line, err := marshalEventSlow(e, now, r)
	if err != nil {
		return b, err
	}
	if len(b) == 0 {
		return line, nil
	}
	return append(b, line...), nil
}

// marshalEventSlow is MarshalEvent by way of encoding/json: the event
// encoded, decoded into a map, redacted and encoded again with sorted
// keys. appendEvent (fast.go) writes the same bytes directly for the
// events of every host-step.
func marshalEventSlow(e event.Event, now time.Time, r *redact.Redactor) ([]byte, error) {
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
	if ph, ok := e.(event.PlannedHost); ok && len(ph.Diagnostics) > 0 {
		m["diagnostics"] = DiagnosticsJSON(ph.Diagnostics, r)
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
