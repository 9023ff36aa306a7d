package wire

import (
	"testing"
	"time"

	"github.com/provadev/prova/engine/event"
	"github.com/provadev/prova/internal/redact"
)

// runEvents are run_started and run_finished in the shapes the engine
// makes and at their edges: no hosts, nil and empty lists, a zero time
// (now takes its place), a time in a zone of its own, names to escape
// and to redact, host names that redaction makes equal.
func runEvents() []event.Event {
	at := time.Date(2026, 12, 1, 9, 30, 0, 120000000, time.FixedZone("x", -(3*3600+30*60)))
	tricky := "a\"b\\c\n\r\t\b\f\x01\x1f <&> \u2028\u2029 é 😀 \xff\xfe end"
	return []event.Event{
		event.RunStarted{RunID: "20261201T093000Z-a1b2c3", Mode: "apply", Runbook: "rb.hcl",
			Hosts: []string{"n1", "n2", "hunter2-host"}, Steps: []string{"shell.a", "assert.b"}, Time: at},
		event.RunStarted{RunID: "r", Mode: "plan", Runbook: tricky, Hosts: []string{}, Time: at.UTC(), FailRule: "any host " + tricky},
		event.RunStarted{},
		event.RunStarted{Time: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)},
		event.RunFinished{RunID: "r1", Mode: "apply", Failed: true, Changes: 3, WouldFail: 2, Duration: 1500 * time.Millisecond, Time: at,
			Hosts: map[string]event.Tally{"n1": {OK: 9, Changed: 1}, "n2": {Failed: 1, Skipped: 2, Unreachable: 3, Warned: 4},
				"hunter2": {OK: 1}, "z" + tricky: {}, "a": {}}},
		event.RunFinished{Mode: "plan", Hosts: map[string]event.Tally{}},
		event.RunFinished{},
		event.RunFinished{Hosts: map[string]event.Tally{"x-hunter2": {OK: 1}, "x-secret": {Failed: 1}}, Time: at},
	}
}

// The direct encoder of the run events writes exactly what the
// encoding/json round trip writes, or leaves the event to it.
func TestAppendRunEventMatchesTheSlowPath(t *testing.T) {
	now := time.Date(2026, 12, 1, 9, 31, 0, 5, time.FixedZone("y", 3600))
	taken := 0
	for _, r := range []*redact.Redactor{nil, redact.New(), redact.New("hunter2", "secret", "\u2028"), redact.New("2026-12-01T09")} {
		for _, e := range runEvents() {
			want, err := marshalEventSlow(e, now, r)
			if err != nil {
				t.Fatal(err)
			}
			got, ok := appendEvent(nil, e, now, r)
			if !ok {
				continue
			}
			taken++
			if string(got) != string(want) {
				t.Errorf("%s (redactor %d secrets):\n got %s\nwant %s", e.Kind(), r.Len(), got, want)
			}
		}
	}
	// All but the one whose host names redaction makes equal.
	if want := 4*len(runEvents()) - 1; taken != want {
		t.Errorf("the direct encoder took %d of the run events, want %d", taken, want)
	}
	// A time encoding/json refuses is its error, on the slow path.
	bad := event.RunStarted{Time: time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC)}
	if _, ok := appendEvent(nil, bad, now, nil); ok {
		t.Error("appendEvent took a time outside RFC 3339")
	}
	if _, err := MarshalEvent(bad, now, nil); err == nil {
		t.Error("MarshalEvent of a time outside RFC 3339: no error")
	}
}

func FuzzAppendRunEvent(f *testing.F) {
	f.Add("n1", "n2", "hunter2", "rb.hcl", int64(1764581400), 3, 1)
	f.Add("a\x00\xff\u2028", "a\x00\xfe\u2028", "\x00", "\"", int64(0), 0, -1)
	f.Add("h", "h2", "h", "", int64(-62135596800), 1, 0)
	f.Fuzz(func(t *testing.T, h1, h2, secret, runbook string, unix int64, n, zone int) {
		r := redact.New(secret)
		at := time.Unix(unix, int64(n)).In(time.FixedZone("z", zone*60))
		now := time.Unix(1, 2)
		for _, e := range []event.Event{
			event.RunStarted{RunID: h1 + h2, Mode: "apply", Runbook: runbook, Hosts: []string{h1, h2}, Steps: []string{runbook}, Time: at, FailRule: secret},
			event.RunFinished{RunID: runbook, Mode: h1, Failed: n%2 == 0, Changes: n, WouldFail: zone, Duration: time.Duration(unix), Time: at,
				Hosts: map[string]event.Tally{h1: {OK: n, Changed: zone}, h2: {Failed: n, Warned: -zone}}},
		} {
			want, err := marshalEventSlow(e, now, r)
			got, ok := appendEvent(nil, e, now, r)
			if err != nil {
				if ok {
					t.Errorf("%s: the slow path fails (%v), the direct encoder wrote %s", e.Kind(), err, got)
				}
				continue
			}
			if ok && string(got) != string(want) {
				t.Errorf("%s:\n got %s\nwant %s", e.Kind(), got, want)
			}
		}
	})
}
