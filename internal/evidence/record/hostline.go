package record

import (
	"strconv"
	"time"

	"github.com/provadev/prova/internal/evidence/wire"
)

// appendHostStep encodes a finished host-step once for both of its
// writes: it appends its line of events.jsonl to b, and returns the line
// with its HostResult's encoding as run.json holds it (a slice of its
// own, held until Close). Both are exactly encoding/json's (hostLine and
// HostResult: same keys in the same order, omitempty as tagged, the same
// escapes and numbers, map keys sorted): the members are written by hand
// without reflection (it was most of the record's cost per host-step in
// the fan-out profile) or, for what that does not handle (checks,
// diagnostics, a result value of a shape other than those JSON decodes
// into), by encoding/json. The error is encoding/json's (a number JSON
// cannot hold); b is then returned as it was.
func appendHostStep(b []byte, l *hostLine) (line, result []byte, err error) {
	start := len(b)
	b = append(b, `{"type":`...)
	b = wire.AppendString(b, l.Type)
	if l.Time == "" && !l.at.IsZero() {
		// RFC 3339 needs no escaping in a JSON string.
		b = append(b, `,"time":"`...)
		b = l.at.AppendFormat(b, time.RFC3339Nano)
		b = append(b, '"')
	} else {
		b = appendStringMember(b, "time", l.Time)
	}
	b = appendStringMember(b, "step", l.Step)
	b = appendStringMember(b, "host", l.Host)
	mark := len(b)
	if b, ok := appendHostResultMembers(b, &l.HostResult); ok {
		// b[mark] is the first member's comma.
		result = make([]byte, 0, len(b)-mark+1)
		result = append(result, '{')
		result = append(result, b[mark+1:]...)
		result = append(result, '}')
		return append(b, '}', '\n'), result, nil
	}
	js, err := plainJSON(l.HostResult)
	if err != nil {
		return b[:start], nil, err
	}
	// hostLine's encoding is its own members, then HostResult's (they are
	// promoted from the embedded struct, in order).
	b = append(b[:mark], ',')
	b = append(b, js[1:]...)
	result = make([]byte, len(js))
	copy(result, js)
	return append(b, '\n'), result, nil
}

// appendHostResult appends hr as encoding/json encodes a HostResult (in
// run.json's steps of a loaded record); false for what
// appendHostResultMembers does not handle.
func appendHostResult(b []byte, hr *HostResult) ([]byte, bool) {
	b = append(b, '{')
	mark := len(b)
	b, ok := appendHostResultMembers(b, hr)
	if !ok {
		return b, false
	}
	b = append(b[:mark], b[mark+1:]...) // the first member's comma
	return append(b, '}'), true
}

// appendStringMember appends `,"k":` and v as a JSON string; k is one
// of the encoder's own keys, which need no escaping.
func appendStringMember(b []byte, k, v string) []byte {
	b = append(b, ',', '"')
	b = append(b, k...)
	b = append(b, '"', ':')
	return wire.AppendString(b, v)
}

// appendHostResultMembers appends hr's members, each after a comma.
func appendHostResultMembers(b []byte, l *HostResult) ([]byte, bool) {
	if len(l.Checks) > 0 || len(l.Diagnostics) > 0 {
		return b, false
	}
	str := func(k, v string) { b = appendStringMember(b, k, v) }
	str("status", string(l.Status))
	if l.Message != "" {
		str("message", l.Message)
	}
	b = append(b, `,"duration_s":`...)
	var ok bool
	if b, ok = wire.AppendFloat(b, l.DurationS); !ok {
		return b, false
	}
	if l.Severity != "" {
		str("severity", l.Severity)
	}
	if len(l.Result) > 0 {
		b = append(b, `,"result":`...)
		if b, ok = appendPlainJSON(b, l.Result); !ok {
			return b, false
		}
	}
	if len(l.Raw) > 0 {
		b = append(b, `,"raw":{`...)
		for i, k := range sortedKeys(l.Raw) {
			if i > 0 {
				b = append(b, ',')
			}
			b = wire.AppendString(b, k)
			b = append(b, ':')
			b = wire.AppendString(b, l.Raw[k])
		}
		b = append(b, '}')
	}
	if len(l.Truncated) > 0 {
		b = append(b, `,"truncated":[`...)
		for i, s := range l.Truncated {
			if i > 0 {
				b = append(b, ',')
			}
			b = wire.AppendString(b, s)
		}
		b = append(b, ']')
	}
	return b, true
}

// appendPlainJSON appends v, of the shapes encoding/json decodes into
// (nil, bool, float64, string, []any, map[string]any), as encoding/json
// encodes it; false for any other shape or a number JSON cannot hold.
func appendPlainJSON(b []byte, v any) ([]byte, bool) {
	switch x := v.(type) {
	case nil:
		return append(b, "null"...), true
	case bool:
		return strconv.AppendBool(b, x), true
	case string:
		return wire.AppendString(b, x), true
	case float64:
		return wire.AppendFloat(b, x)
	case []any:
		if x == nil {
			return append(b, "null"...), true
		}
		b = append(b, '[')
		for i, e := range x {
			if i > 0 {
				b = append(b, ',')
			}
			var ok bool
			if b, ok = appendPlainJSON(b, e); !ok {
				return b, false
			}
		}
		return append(b, ']'), true
	case map[string]any:
		if x == nil {
			return append(b, "null"...), true
		}
		var small [8]string // most results have a few members: no allocation
		keys := appendSortedKeys(small[:0], x)
		b = append(b, '{')
		for i, k := range keys {
			if i > 0 {
				b = append(b, ',')
			}
			b = wire.AppendString(b, k)
			b = append(b, ':')
			var ok bool
			if b, ok = appendPlainJSON(b, x[k]); !ok {
				return b, false
			}
		}
		return append(b, '}'), true
	}
	return b, false
}
