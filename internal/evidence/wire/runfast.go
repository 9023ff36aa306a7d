package wire

import (
	"sort"
	"strconv"
	"time"

	"github.com/provadev/prova/engine/event"
	"github.com/provadev/prova/internal/redact"
)

// zeroTime is how encoding/json writes the zero time.Time: the slow path
// puts now in its place.
var zeroTime = time.Time{}.Format(time.RFC3339Nano)

// appendRunEvent encodes run_started and run_finished straight into bytes,
// exactly as marshalEventSlow does (the same keys in the same order, the
// same escapes and numbers, the event's own time or now for a zero one):
// each names every host of the run, and the slow path's round trip made
// about 35 allocations per host for the two (a 200-host run's record and
// --json stream each made 7,000). ok is false for other events, a secret
// in the field names, a time encoding/json refuses, or host names that
// redaction makes equal; MarshalEvent then takes the slow path.
func appendRunEvent(b []byte, e event.Event, now time.Time, r *redact.Redactor) ([]byte, bool) {
	var keys string
	var at time.Time
	switch e := e.(type) {
	case event.RunStarted:
		keys = "fail_rule hosts mode run_id runbook steps"
		at = e.Time
	case event.RunFinished:
		keys = "changes duration_ns failed hosts mode run_id would_fail changed ok skipped unreachable warned"
		at = e.Time
	default:
		return b, false
	}
	if r.Contains("type time " + keys) {
		return b, false
	}
	// encoding/json's time (strict RFC 3339), redacted as the slow path
	// redacts every string it decoded; now when that is empty or zero.
	var buf [64]byte
	ts, err := at.AppendText(buf[:0])
	if err != nil {
		return b, false
	}
	t := redacted(r, string(ts))
	if t == "" || t == zeroTime {
		t = now.UTC().Format(time.RFC3339Nano)
	}
	o := objWriter{b: b, r: r}
	o.b = append(o.b, `{"type":`...)
	o.b = appendString(o.b, e.Kind())
	o.b = append(o.b, `,"time":`...)
	o.b = appendString(o.b, t)
	switch e := e.(type) {
	case event.RunStarted:
		if e.FailRule != "" {
			o.str("fail_rule", e.FailRule)
		}
		o.key("hosts")
		o.strings(e.Hosts)
		o.str("mode", e.Mode)
		o.str("run_id", e.RunID)
		o.str("runbook", e.Runbook)
		o.key("steps")
		o.strings(e.Steps)
	case event.RunFinished:
		o.int("changes", int64(e.Changes))
		o.int("duration_ns", int64(e.Duration))
		o.key("failed")
		o.b = strconv.AppendBool(o.b, e.Failed)
		o.key("hosts")
		if !o.tallies(e.Hosts) {
			return b, false
		}
		o.str("mode", e.Mode)
		o.str("run_id", e.RunID)
		if e.WouldFail != 0 {
			o.int("would_fail", int64(e.WouldFail))
		}
	}
	o.b = append(o.b, "}\n"...)
	return o.b, true
}

// tallies writes run_finished's hosts: an object keyed by the redacted
// host names in order, each tally's members in order of their names;
// null for nil. false when redaction makes two names equal (the slow
// path's decode would keep one of them).
func (o *objWriter) tallies(m map[string]event.Tally) bool {
	if m == nil {
		o.b = append(o.b, "null"...)
		return true
	}
	type member struct {
		key string
		t   event.Tally
	}
	ms := make([]member, 0, len(m))
	for k, t := range m {
		ms = append(ms, member{redacted(o.r, k), t})
	}
	sort.Slice(ms, func(i, j int) bool { return ms[i].key < ms[j].key })
	o.b = append(o.b, '{')
	for i, m := range ms {
		if i > 0 {
			if m.key == ms[i-1].key {
				return false
			}
			o.b = append(o.b, ',')
		}
		o.b = appendString(o.b, m.key)
		o.b = append(o.b, `:{"changed":`...)
		o.b = strconv.AppendInt(o.b, int64(m.t.Changed), 10)
		o.int("failed", int64(m.t.Failed))
		o.int("ok", int64(m.t.OK))
		o.int("skipped", int64(m.t.Skipped))
		o.int("unreachable", int64(m.t.Unreachable))
		o.int("warned", int64(m.t.Warned))
		o.b = append(o.b, '}')
	}
	o.b = append(o.b, '}')
	return true
}
