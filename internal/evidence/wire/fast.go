package wire

import (
	"bytes"
	"encoding/json"
	"math"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/provadev/prova/engine/event"
	"github.com/provadev/prova/internal/redact"
)

// appendEvent encodes the events of every host-step (host_started,
// host_finished, output, step_started, step_finished, planned) straight
// into bytes, exactly as marshalEventSlow does by way of encoding/json, a
// decode into a map, redaction and a second encoding: the same keys in
// the same order, the same escapes, the same numbers; run_started and
// run_finished are appendRunEvent's. ok is false for other events, and
// when a secret occurs in the event's field names (which marshalEventSlow
// would redact too); MarshalEvent then takes the slow path.
func appendEvent(b []byte, e event.Event, now time.Time, r *redact.Redactor) ([]byte, bool) {
	var keys string
	switch e.(type) {
	case event.HostStarted:
		keys = "host step"
	case event.HostFinished:
		keys = "checks diagnostics duration_ns evidence gave_up host message result severity status step measured name threshold verdict"
	case event.Output:
		keys = "host line step stream"
	case event.StepStarted:
		keys = "batch hosts module name step"
	case event.StepFinished:
		keys = "duration_ns step"
	case event.PlannedHost:
		keys = "action changes destructive diagnostics from host name step summary symbol to"
	default:
		return appendRunEvent(b, e, now, r)
	}
	if r.Contains("type time " + keys) {
		return b, false
	}
	o := objWriter{b: b, r: r}
	o.b = append(o.b, `{"type":`...)
	o.b = appendString(o.b, e.Kind())
	o.b = append(o.b, `,"time":"`...) // RFC 3339 has nothing JSON escapes
	o.b = now.UTC().AppendFormat(o.b, time.RFC3339Nano)
	o.b = append(o.b, '"')
	switch e := e.(type) {
	case event.HostStarted:
		o.str("host", e.Host)
		o.str("step", e.Step)
	case event.HostFinished:
		if len(e.Checks) > 0 {
			o.key("checks")
			o.b = append(o.b, '[')
			for i, c := range e.Checks {
				if i > 0 {
					o.b = append(o.b, ',')
				}
				o.b = append(o.b, `{"measured":`...)
				o.b = appendString(o.b, redacted(r, c.Measured))
				if c.Message != "" {
					o.str("message", c.Message)
				}
				o.str("name", c.Name)
				if c.Threshold != "" {
					o.str("threshold", c.Threshold)
				}
				o.str("verdict", c.Verdict)
				o.b = append(o.b, '}')
			}
			o.b = append(o.b, ']')
		}
		if len(e.Diagnostics) > 0 {
			o.key("diagnostics")
			if !o.json(DiagnosticsJSON(e.Diagnostics, r)) {
				return b, false
			}
		}
		o.int("duration_ns", int64(e.Duration))
		if len(e.Evidence) > 0 {
			o.key("evidence")
			ev := make(map[string]any, len(e.Evidence))
			for k, v := range e.Evidence {
				ev[k] = v
			}
			var ok bool
			if o.b, ok = appendPlain(o.b, ev, r); !ok {
				return b, false
			}
		}
		if e.GaveUp {
			o.key("gave_up")
			o.b = append(o.b, "true"...)
		}
		o.str("host", e.Host)
		if e.Message != "" {
			o.str("message", e.Message)
		}
		if len(e.Result) > 0 {
			o.key("result")
			var ok bool
			if o.b, ok = appendPlain(o.b, e.Result, r); !ok {
				return b, false
			}
		}
		if e.Severity != "" {
			o.str("severity", e.Severity)
		}
		o.str("status", string(e.Status))
		o.str("step", e.Step)
	case event.Output:
		o.str("host", e.Host)
		o.str("line", e.Line)
		o.str("step", e.Step)
		o.str("stream", e.Stream)
	case event.StepStarted:
		if e.Batch != 0 {
			o.int("batch", int64(e.Batch))
		}
		o.key("hosts")
		o.strings(e.Hosts)
		o.str("module", e.Module)
		o.str("name", e.Name)
		o.str("step", e.Step)
	case event.StepFinished:
		o.int("duration_ns", int64(e.Duration))
		o.str("step", e.Step)
	case event.PlannedHost:
		o.str("action", string(e.Action))
		if len(e.Changes) > 0 {
			o.key("changes")
			o.b = append(o.b, '[')
			for i, c := range e.Changes {
				if i > 0 {
					o.b = append(o.b, ',')
				}
				o.b = append(o.b, `{"from":`...)
				o.b = appendString(o.b, redacted(r, c.From))
				o.str("name", c.Name)
				o.str("to", c.To)
				o.b = append(o.b, '}')
			}
			o.b = append(o.b, ']')
		}
		if e.Destructive != "" {
			o.str("destructive", e.Destructive)
		}
		if len(e.Diagnostics) > 0 {
			o.key("diagnostics")
			if !o.json(DiagnosticsJSON(e.Diagnostics, r)) {
				return b, false
			}
		}
		o.str("host", e.Host)
		o.str("step", e.Step)
		if e.Summary != "" {
			o.str("summary", e.Summary)
		}
		o.str("symbol", e.Symbol)
	}
	o.b = append(o.b, "}\n"...)
	return o.b, true
}

// objWriter appends the members of a JSON object after its first one.
type objWriter struct {
	b []byte
	r *redact.Redactor
}

func (o *objWriter) key(k string) {
	o.b = append(o.b, ',')
	o.b = appendString(o.b, k)
	o.b = append(o.b, ':')
}

// str writes a string member, redacted.
func (o *objWriter) str(k, v string) {
	o.key(k)
	o.b = appendString(o.b, redacted(o.r, v))
}

func (o *objWriter) int(k string, v int64) {
	o.key(k)
	o.b = strconv.AppendInt(o.b, v, 10)
}

// strings writes a list of strings, redacted; nil is null.
func (o *objWriter) strings(ss []string) {
	if ss == nil {
		o.b = append(o.b, "null"...)
		return
	}
	o.b = append(o.b, '[')
	for i, s := range ss {
		if i > 0 {
			o.b = append(o.b, ',')
		}
		o.b = appendString(o.b, redacted(o.r, s))
	}
	o.b = append(o.b, ']')
}

// appendPlain appends a value of the shapes encoding/json decodes into
// (nil, bool, float64, string, []any, map[string]any with sorted keys),
// every string and key redacted, as the slow path writes it; false for
// anything else, a number JSON cannot hold, or keys that redaction makes
// equal.
func appendPlain(b []byte, v any, r *redact.Redactor) ([]byte, bool) {
	switch x := v.(type) {
	case nil:
		return append(b, "null"...), true
	case bool:
		return strconv.AppendBool(b, x), true
	case string:
		return appendString(b, redacted(r, x)), true
	case float64:
		return appendFloat(b, x)
	case []any:
		b = append(b, '[')
		for i, e := range x {
			if i > 0 {
				b = append(b, ',')
			}
			var ok bool
			if b, ok = appendPlain(b, e, r); !ok {
				return b, false
			}
		}
		return append(b, ']'), true
	case map[string]any:
		type member struct {
			key string
			val any
		}
		ms := make([]member, 0, len(x))
		for k, e := range x {
			ms = append(ms, member{redacted(r, k), e})
		}
		sort.Slice(ms, func(i, j int) bool { return ms[i].key < ms[j].key })
		b = append(b, '{')
		for i, m := range ms {
			if i > 0 {
				if m.key == ms[i-1].key {
					return b, false
				}
				b = append(b, ',')
			}
			b = appendString(b, m.key)
			b = append(b, ':')
			var ok bool
			if b, ok = appendPlain(b, m.val, r); !ok {
				return b, false
			}
		}
		return append(b, '}'), true
	}
	return b, false
}

// redacted is r.String of s as the slow path sees s: after its JSON round
// trip, which replaces invalid UTF-8 by U+FFFD.
func redacted(r *redact.Redactor, s string) string {
	if !utf8.ValidString(s) {
		var b strings.Builder
		for i := 0; i < len(s); {
			c, size := utf8.DecodeRuneInString(s[i:])
			if c == utf8.RuneError && size == 1 {
				b.WriteString("\ufffd") // one per invalid byte, as encoding/json does
			} else {
				b.WriteString(s[i : i+size])
			}
			i += size
		}
		s = b.String()
	}
	return r.String(s)
}

// appendFloat writes f as encoding/json does: the shortest decimal that
// reads back as f, in exponent form below 1e-6 and from 1e21 on, with a
// one-digit negative exponent written without its leading zero.
func appendFloat(b []byte, f float64) ([]byte, bool) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return b, false
	}
	format := byte('f')
	if abs := math.Abs(f); abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, f, format, -1, 64)
	if format == 'e' {
		if n := len(b); n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b, true
}

// appendString appends s as a JSON string the way encoding/json writes a
// string it decoded before (no HTML escapes): quotes, backslashes and
// control characters escaped, U+2028 and U+2029 escaped, and each invalid
// UTF-8 byte written as the escape \ufffd. (Strings reach it through
// redacted, which already replaced the invalid bytes of the original text
// by the character U+FFFD, as the slow path's first round trip does; only
// redaction can leave invalid bytes behind.)
func appendString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hex[r&0xf])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// json writes v with encoding/json, without HTML escapes, as the slow path
// writes the diagnostics it adds after its round trip.
func (o *objWriter) json(v any) bool {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return false
	}
	o.b = append(o.b, bytes.TrimSuffix(buf.Bytes(), []byte("\n"))...)
	return true
}
