package ui

import (
	"bufio"
	"bytes"
	"encoding/json"
	"github.com/hashicorp/hcl/v2"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/provadev/prova/engine/event"
	"github.com/provadev/prova/internal/redact"
	"github.com/provadev/prova/internal/testkit/golden"
)

func jsonLines(t *testing.T, events []event.Event) []byte {
	t.Helper()
	var b bytes.Buffer
	j := NewJSON(&b, redact.New(secret)).WithClock(func() time.Time { return t0.Add(time.Second) }).WithOutput(true)
	for _, e := range events {
		j.Observe(e)
	}
	if err := j.Err(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestJSONGolden(t *testing.T) {
	all := append(planEvents(), applyEvents(t)...)
	golden.Check(t, filepath.Join("testdata", "events.jsonl.golden"), jsonLines(t, all))
}

// TestJSONSchema checks every line against the event it came from: the
// type, a parseable time, and each json-tagged field of the event present
// under its tag (omitempty fields only when set).
func TestJSONSchema(t *testing.T) {
	events := append(planEvents(), applyEvents(t)...)
	events = append(events, &event.HostStarted{Step: "p", Host: "pointer"})
	out := jsonLines(t, events)
	if bytes.Contains(out, []byte(secret)) {
		t.Error("secret in JSON output")
	}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<20)
	i := 0
	summaries := 0
	for ; sc.Scan(); i++ {
		if strings.HasPrefix(sc.Text(), `{"type":"summary",`) {
			summaries++
			i--
			continue
		}
		if i >= len(events) {
			t.Fatalf("more lines than events")
		}
		e := event.Value(events[i])
		var m map[string]any
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatalf("line %d: %v: %s", i+1, err, sc.Bytes())
		}
		if !strings.HasPrefix(sc.Text(), `{"type":"`+e.Kind()+`","time":"`) {
			t.Errorf("line %d does not start with type and time: %s", i+1, sc.Text())
		}
		ts, _ := m["time"].(string)
		if _, err := time.Parse(time.RFC3339Nano, ts); err != nil {
			t.Errorf("line %d: time %q: %v", i+1, ts, err)
		}
		v := reflect.ValueOf(e)
		for f := 0; f < v.NumField(); f++ {
			tag, opts, _ := strings.Cut(v.Type().Field(f).Tag.Get("json"), ",")
			if tag == "-" || tag == "" {
				continue
			}
			_, present := m[tag]
			if want := !(opts == "omitempty" && v.Field(f).IsZero()); present != want {
				t.Errorf("line %d (%s): field %q present=%v, want %v", i+1, e.Kind(), tag, present, want)
			}
		}
		if hf, ok := e.(event.HostFinished); ok {
			checkDiagJSON(t, hf, m["diagnostics"])
		}
	}
	if i != len(events) {
		t.Errorf("%d lines for %d events", i, len(events))
	}
	finished := 0
	for _, e := range events {
		if _, ok := event.Value(e).(event.RunFinished); ok {
			finished++
		}
	}
	if summaries != finished {
		t.Errorf("%d summary lines, want one after each of the %d run_finished", summaries, finished)
	}
}

func checkDiagJSON(t *testing.T, hf event.HostFinished, got any) {
	t.Helper()
	if len(hf.Diagnostics) == 0 {
		if got != nil {
			t.Errorf("diagnostics for %s/%s without any", hf.Step, hf.Host)
		}
		return
	}
	list, ok := got.([]any)
	if !ok || len(list) != len(hf.Diagnostics) {
		t.Fatalf("diagnostics = %#v", got)
	}
	d := list[0].(map[string]any)
	r := hf.Diagnostics[0].Subject
	want := map[string]any{
		"severity": "error",
		"summary":  "Assertion failed",
		"detail":   "only 1 verbs connections (token (sensitive value))",
		"range": map[string]any{
			"filename": r.Filename,
			"start":    map[string]any{"line": float64(r.Start.Line), "column": float64(r.Start.Column), "byte": float64(r.Start.Byte)},
			"end":      map[string]any{"line": float64(r.End.Line), "column": float64(r.End.Column), "byte": float64(r.End.Byte)},
		},
	}
	if !reflect.DeepEqual(d, want) {
		t.Errorf("diagnostic = %#v\nwant %#v", d, want)
	}
}

func TestJSONTime(t *testing.T) {
	// An event's own time wins; others get the clock, in UTC.
	loc := time.FixedZone("X", 3600)
	out := jsonLines(t, []event.Event{
		event.RunStarted{Mode: "apply", Time: time.Date(2026, 1, 2, 3, 4, 5, 6, loc)},
		event.Warning{Message: "w"},
		event.RunFinished{Mode: "apply"},
	})
	ls := strings.Split(strings.TrimSpace(string(out)), "\n")
	want := []string{`"time":"2026-01-02T03:04:05.000000006+01:00"`, `"time":"2026-11-30T02:15:01Z"`, `"time":"2026-11-30T02:15:01Z"`, `"type":"summary","time":"2026-11-30T02:15:01Z"`}
	for i, w := range want {
		if !strings.Contains(ls[i], w) {
			t.Errorf("line %d: want %s in %s", i+1, w, ls[i])
		}
	}
}

func TestJSONRedactsKeysAndNesting(t *testing.T) {
	out := jsonLines(t, []event.Event{event.HostFinished{
		Step: "s", Host: "h", Status: event.OK,
		Result:   map[string]any{"peers": []any{map[string]any{"name": "x " + secret}}, secret: 1},
		Evidence: map[string]string{"cmd " + secret: "out " + secret},
	}})
	if bytes.Contains(out, []byte(secret)) {
		t.Errorf("secret in %s", out)
	}
	if n := strings.Count(string(out), redact.Placeholder); n != 4 {
		t.Errorf("%d placeholders, want 4: %s", n, out)
	}
	if !strings.Contains(string(out), `"status":"ok","step":"s"}`) {
		t.Errorf("keys not sorted after type and time: %s", out)
	}
}

func TestJSONNoHTMLEscaping(t *testing.T) {
	out := jsonLines(t, []event.Event{event.PlannedHost{Step: "s", Host: "h", Action: "change", Summary: "a -> b & <c>"}})
	if !strings.Contains(string(out), `"a -> b & <c>"`) {
		t.Errorf("summary escaped: %s", out)
	}
}

func TestJSONKeyOrder(t *testing.T) {
	out := jsonLines(t, []event.Event{event.Output{Step: "s", Host: "h", Stream: "stdout", Line: "x"}})
	var keys []string
	dec := json.NewDecoder(bytes.NewReader(out))
	if _, err := dec.Token(); err != nil {
		t.Fatal(err)
	}
	for dec.More() {
		k, _ := dec.Token()
		keys = append(keys, k.(string))
		var v any
		if err := dec.Decode(&v); err != nil {
			t.Fatal(err)
		}
	}
	if !reflect.DeepEqual(keys[:2], []string{"type", "time"}) || !sort.StringsAreSorted(keys[2:]) {
		t.Errorf("keys = %v", keys)
	}
}

// A host that would fail carries apply's diagnostics in the JSON stream too.
func TestJSONPlannedDiagnostics(t *testing.T) {
	out := jsonLines(t, []event.Event{event.PlannedHost{Step: "assert.ofed", Host: "gpfs04", Action: event.PlanWouldFail,
		Summary: "OFED missing", Destructive: "", Diagnostics: hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Assertion failed", Detail: "OFED missing"}}}})
	for _, want := range []string{`"action":"would fail"`, `"diagnostics":[`, `"summary":"Assertion failed"`} {
		if !strings.Contains(string(out), want) {
			t.Errorf("JSON lacks %s: %s", want, out)
		}
	}
}
