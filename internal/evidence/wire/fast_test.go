package wire

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/hcl/v2"

	"github.com/provadev/prova/engine/event"
	"github.com/provadev/prova/internal/redact"
)

// The direct encoder must write exactly what the encoding/json round trip
// writes, for every event it takes, with and without secrets.
func TestAppendEventMatchesTheSlowPath(t *testing.T) {
	now := time.Date(2026, 12, 1, 9, 30, 0, 123456789, time.FixedZone("x", 3600))
	tricky := "a\"b\\c\n\r\t\b\f\x01\x1f <&> \u2028\u2029 é 😀 \xff\xfe end"
	evs := []event.Event{
		event.HostStarted{Step: "shell.s1", Host: "n1"},
		event.HostStarted{},
		event.Output{Step: "s", Host: "h", Stream: "stdout", Line: "line 1\nline 2 hunter2 " + tricky},
		event.StepStarted{Step: "shell.s", Module: "shell", Name: "s", Hosts: []string{"n1", "hunter2-host"}, Batch: 2},
		event.StepStarted{Step: "shell.s", Module: "shell", Name: "s"},
		event.StepStarted{Step: "shell.s", Hosts: []string{}},
		event.StepFinished{Step: "shell.s", Duration: 1500 * time.Millisecond},
		event.HostFinished{Step: "shell.s", Host: "n1", Status: event.OK, Duration: 42},
		event.HostFinished{Step: "wait.w", Host: "n3", Status: event.OK, GaveUp: true, Message: "gave up waiting: until still false after 3 attempts"},
		event.HostFinished{Step: "assert.a", Host: "n2", Status: event.Failed, Message: "boom hunter2 " + tricky,
			Duration: time.Second, Severity: "warn",
			Result: map[string]any{"changed": false, "rc": float64(3), "ratio": 0.1, "big": 1e21, "small": 1e-7, "f1": 123456789.125, "f2": -0.000001, "f3": 5e-324, "f4": -1e-10, "f5": 1e20, "f6": 1.5e300,
				"stdout": "x hunter2 <y>", "none": nil, "list": []any{"a", float64(1), true, nil},
				"nested": map[string]any{"z": "hunter2", "a": []any{}}, "hunter2": "key"},
			Evidence:    map[string]string{"mmfsadm test verbs conn": "conn hunter2\n", "b": tricky},
			Checks:      []event.Check{{Name: "peers", Measured: "3", Threshold: ">= 4", Verdict: "fail", Message: "hunter2 missing"}, {Name: "n", Measured: "", Verdict: "pass"}},
			Diagnostics: hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Assertion failed", Detail: "hunter2 <no>", Subject: &hcl.Range{Filename: "r.hcl", Start: hcl.Pos{Line: 3, Column: 2, Byte: 20}, End: hcl.Pos{Line: 3, Column: 9, Byte: 27}}}, nil}},
		event.HostFinished{Step: "s", Host: "h", Status: event.Skipped, Result: map[string]any{}, Evidence: map[string]string{}, Checks: []event.Check{}},
		event.PlannedHost{Step: "mmchconfig.verbs", Host: "gpfs01", Action: "change", Symbol: "~", Summary: "verbsRdma: disable -> enable",
			Changes: []event.Change{{Name: "verbsRdma", From: "disable", To: "hunter2"}}},
		event.PlannedHost{Step: "s", Host: "h", Action: "no change", Symbol: "="},
		event.PlannedHost{Step: "mmshutdown.stop", Host: "gpfs02", Action: "would fail", Symbol: "!", Summary: "hunter2 refused",
			Destructive: "stops GPFS on hunter2", Diagnostics: hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Destructive step", Detail: "<x>"}}},
	}
	for _, r := range []*redact.Redactor{nil, redact.New(), redact.New("hunter2", "\u2028")} {
		for _, e := range evs {
			want, err := marshalEventSlow(e, now, r)
			if err != nil {
				t.Fatal(err)
			}
			got, ok := appendEvent(nil, e, now, r)
			if !ok {
				t.Errorf("%s: not taken by the direct encoder", e.Kind())
				continue
			}
			if string(got) != string(want) {
				t.Errorf("%s (redactor %d secrets):\n got %s\nwant %s", e.Kind(), r.Len(), got, want)
			}
		}
	}
}

// A secret inside a field name sends the event down the slow path, which
// redacts keys too.
func TestAppendEventLeavesRedactedKeysToTheSlowPath(t *testing.T) {
	r := redact.New("ste")
	if _, ok := appendEvent(nil, event.HostStarted{Step: "s", Host: "h"}, time.Now(), r); ok {
		t.Error("appendEvent took an event whose field names hold a secret")
	}
	b, err := MarshalEvent(event.HostStarted{Step: "s", Host: "h"}, time.Unix(0, 0), r)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := marshalEventSlow(event.HostStarted{Step: "s", Host: "h"}, time.Unix(0, 0), r)
	if string(b) != string(want) {
		t.Errorf("MarshalEvent = %s, want %s", b, want)
	}
	if _, ok := appendEvent(nil, event.Warning{Message: "m"}, time.Now(), nil); ok {
		t.Error("appendEvent took warning, which it does not encode")
	}
	if _, ok := appendEvent(nil, event.RunFinished{Hosts: map[string]event.Tally{"n1": {}}}, time.Now(), redact.New("unreach")); ok {
		t.Error("appendEvent took run_finished with a secret in a tally's field name")
	}
}

func FuzzAppendEventOutput(f *testing.F) {
	f.Add("line", "host", "hunter2")
	f.Add("a\x00\xff\u2028", "h\"", "\\")
	f.Fuzz(func(t *testing.T, line, host, secret string) {
		r := redact.New(secret)
		e := event.Output{Step: "s", Host: host, Stream: "stdout", Line: line}
		now := time.Unix(1, 2)
		want, err := marshalEventSlow(e, now, r)
		if err != nil {
			t.Skip()
		}
		got, ok := appendEvent(nil, e, now, r)
		if ok && string(got) != string(want) {
			t.Errorf("got %s\nwant %s", got, want)
		}
	})
}

// appendEvent writes the fields it knows of; a field added to one of its
// event types must be added to it too (or the event left to the slow
// path), or its output silently lacks the field. This test names them.
func TestAppendEventKnowsEveryField(t *testing.T) {
	known := map[reflect.Type][]string{
		reflect.TypeOf(event.HostStarted{}):  {"step", "host"},
		reflect.TypeOf(event.HostFinished{}): {"step", "host", "status", "message", "duration_ns", "-", "result", "evidence", "checks", "severity", "gave_up"},
		reflect.TypeOf(event.Check{}):        {"name", "measured", "threshold", "verdict", "message"},
		reflect.TypeOf(event.Output{}):       {"step", "host", "stream", "line"},
		reflect.TypeOf(event.StepStarted{}):  {"step", "module", "name", "hosts", "batch"},
		reflect.TypeOf(event.StepFinished{}): {"step", "duration_ns"},
		reflect.TypeOf(event.PlannedHost{}):  {"step", "host", "action", "symbol", "summary", "changes", "destructive", "-"},
		reflect.TypeOf(event.Change{}):       {"name", "from", "to"},
		reflect.TypeOf(event.RunStarted{}):   {"run_id", "mode", "runbook", "hosts", "steps", "time", "fail_rule"},
		reflect.TypeOf(event.RunFinished{}):  {"run_id", "mode", "hosts", "failed", "changes", "would_fail", "duration_ns", "time"},
		reflect.TypeOf(event.Tally{}):        {"ok", "changed", "failed", "skipped", "unreachable", "warned"},
	}
	for ty, want := range known {
		var got []string
		for i := range ty.NumField() {
			tag, _, _ := strings.Cut(ty.Field(i).Tag.Get("json"), ",")
			got = append(got, tag)
		}
		if strings.Join(got, " ") != strings.Join(want, " ") {
			t.Errorf("%s has the JSON fields %q; appendEvent knows %q: update fast.go", ty, got, want)
		}
	}
}

// AppendEvent appends MarshalEvent's line after what the buffer holds, on
// both paths (direct, and encoding/json for an event it does not take).
func TestAppendEventAppends(t *testing.T) {
	now := time.Date(2026, 12, 1, 9, 30, 0, 0, time.UTC)
	r := redact.New()
	for _, e := range []event.Event{
		event.HostStarted{Step: "shell.s1", Host: "n1"},
		event.Warning{Host: "n1", Message: "slow path"},
	} {
		want, err := MarshalEvent(e, now, r)
		if err != nil {
			t.Fatal(err)
		}
		prefix := []byte("kept\n")
		got, err := AppendEvent(append(make([]byte, 0, 4), prefix...), e, now, r)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != string(prefix)+string(want) {
			t.Errorf("%s: AppendEvent = %q, want %q after the prefix", e.Kind(), got, want)
		}
	}
}
