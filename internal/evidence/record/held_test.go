package record

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/provadev/prova/engine/event"
)

// The Writer holds its host-steps encoded (held.go), not as HostResult
// values: its run.json must still be byte for byte encoding/json's of
// the record. The reference is built by the other road: the record
// rebuilt from the trail (HostResult values decoded from events.jsonl,
// what Load does for a killed run), encoded by encoding/json.
func TestHeldRunJSONIsEncodingJSONOfTheTrailsRecord(t *testing.T) {
	w := create(t, t.TempDir(), testMeta())
	events := applyEvents()
	last := events[len(events)-1] // RunFinished
	extra := []event.Event{
		event.StepStarted{Step: "shell.more", Module: "shell", Hosts: []string{"gpfs01", "gpfs02", "gpfs03"}},
		event.HostStarted{Step: "shell.more", Host: "gpfs03"}, // never finished
		event.HostStarted{Step: "shell.more", Host: "gpfs02"},
		event.HostFinished{Step: "shell.more", Host: "gpfs02", Status: event.Warned, Severity: "warn", Message: "slow <&> \u2028",
			Duration: 1234567 * time.Nanosecond, Result: map[string]any{"n": 3, "f": 1e21, "nested": map[string]any{"k": []any{nil, true}}}},
		event.HostFinished{Step: "shell.more", Host: "gpfs01", Status: event.OK, Duration: time.Millisecond,
			Result: map[string]any{"changed": false, "rc": 0.0, "stdout": "", "stderr": "", "message": "", "host": "gpfs01"}},
	}
	for _, e := range append(append(events[:len(events)-1:len(events)-1], extra...), last) {
		w.Observe(e)
	}
	if err := w.Close(""); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(filepath.Join(w.Dir(), runFile))
	if err != nil {
		t.Fatal(err)
	}
	rebuilt, err := rebuild(w.Dir(), Record{Version: Version})
	if err != nil {
		t.Fatal(err)
	}
	if want := slowRunJSON(t, rebuilt); !bytes.Equal(got, want) {
		t.Errorf("run.json from held results:\n%s\nencoding/json of the trail's record:\n%s", got, want)
	}
	var rec Record
	if err := json.Unmarshal(got, &rec); err != nil {
		t.Fatal(err)
	}
	if len(rec.Steps) != 4 || rec.Steps[3].Hosts["gpfs03"].Status != Unfinished || rec.Tallies["gpfs02"].Failed != 1 {
		t.Errorf("steps %d, unfinished %+v, tallies %+v", len(rec.Steps), rec.Steps[3].Hosts["gpfs03"], rec.Tallies)
	}
	if len(rec.Assertions) != 2 || rec.Assertions[1].Severity != "warn" || rec.Assertions[1].Message != "slow <&> \u2028" {
		t.Errorf("assertions %+v: want the check and the warned step", rec.Assertions)
	}
	noSecretAnywhere(t, w.Dir())
}

// A result that cannot be encoded (a NaN) is the record's error when it
// is observed, and Close keeps the last run.json rather than write one
// that lacks it.
func TestHeldUnencodableResultKeepsTheLastRunJSON(t *testing.T) {
	w := create(t, t.TempDir(), testMeta())
	w.Observe(event.HostFinished{Step: "shell.a", Host: "gpfs01", Status: event.OK})
	w.Observe(event.HostFinished{Step: "shell.a", Host: "gpfs02", Status: event.OK, Result: map[string]any{"x": math.NaN()}})
	if err := w.Err(); err == nil || !strings.Contains(err.Error(), "encode events.jsonl line") {
		t.Errorf("record error %v: want the encoding's", err)
	}
	err := w.Close("")
	if err == nil || !strings.Contains(err.Error(), "host gpfs02: its result could not be encoded") {
		t.Errorf("Close: %v", err)
	}
	rec, err := Load(w.Dir())
	if err != nil {
		t.Fatal(err)
	}
	if h := rec.Steps[0].Hosts["gpfs01"]; h.Status != event.OK {
		t.Errorf("the trail lost the encodable host-step: %+v", rec.Steps[0].Hosts)
	}
}

// The result map the Writer reuses between host-steps carries nothing
// from one to the next, a wide one (dropped after use) included.
func TestHeldResultsDoNotShareKeys(t *testing.T) {
	w := create(t, t.TempDir(), testMeta())
	wide := map[string]any{}
	for i := range 100 {
		wide[fmt.Sprintf("k%03d", i)] = float64(i)
	}
	results := []map[string]any{{"a": 1.0, "stdout": "x"}, wide, {"b": true}, {"c": "z"}}
	for i, r := range results {
		w.Observe(event.HostFinished{Step: "s.x", Host: fmt.Sprintf("h%d", i), Status: event.OK, Result: r})
	}
	for i, r := range results {
		got := heldHost(t, w, "s.x", fmt.Sprintf("h%d", i)).Result
		want := len(r)
		if _, ok := r["stdout"]; ok {
			want--
		}
		if len(got) != want {
			t.Errorf("h%d: result %v, want the %d members of %v without stdout", i, got, want, r)
		}
	}
	if len(results[0]) != 2 {
		t.Errorf("the event's own result was changed: %v", results[0])
	}
	if err := w.Close(""); err != nil {
		t.Fatal(err)
	}
}
