package record

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/provadev/prova/engine/event"
	"github.com/provadev/prova/internal/evidence/wire"
)

// slowRunJSON is run.json as encoding/json writes the record.
func slowRunJSON(t testing.TB, rec *Record) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(rec); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestRunJSONIsEncodingJSON(t *testing.T) {
	started := time.Date(2026, 12, 1, 10, 0, 0, 123456789, time.UTC)
	full := Record{
		Version: Version,
		Meta: Meta{RunID: "20261201T100000Z-abcdef", Mode: "apply", Runbook: "rb <&>.hcl", Started: started,
			Vars: map[string]any{"b": 1.0, "a": "x"}, Hosts: []string{"n2", "n1"}, PID: 42},
		Status: "failed", Finished: started.Add(time.Second), DurationS: 1.5,
		Aborted: &Abort{Reason: "interrupted", HalfDone: []string{"shell.b"}},
		Tallies: map[string]event.Tally{"n1": {OK: 1, Failed: 1}, "n2": {Changed: 2}},
		Steps: []Step{
			{Step: "shell.a", Module: "shell", Name: "first \"one\"", Finished: true, DurationS: 0.25,
				Hosts: map[string]HostResult{
					"n2": {Status: event.Changed, DurationS: 0.014236911,
						Result: map[string]any{"rc": float64(0), "changed": true, "cmd": "sh -c 'true'"},
						Raw:    map[string]string{"stdout": "raw/sha256/ab.zst"}},
					"n1": {Status: event.Failed, Message: "exit 1: \u2028 \x01 \xff", Severity: "error",
						Truncated: []string{"stdout"}},
					"ünï": {Status: event.OK},
				}},
			{Step: "assert.b", Hosts: map[string]HostResult{ // encoding/json's part
				"n1": {Status: event.Failed, Checks: []event.Check{{Name: "c", Measured: "1", Verdict: "fail"}}},
				"n2": {Status: event.Failed, Diagnostics: []wire.Diagnostic{{Severity: "error", Summary: "d"}}},
				"n3": {Status: event.OK, Result: map[string]any{"n": 3}}, // an int: not JSON-decoded
			}},
			{Step: "shell.c", Hosts: map[string]HostResult{}},
			{Step: "shell.d", Hosts: nil},
			{Step: "shell.e", Hosts: map[string]HostResult{"n1": {Status: event.OK}},
				Plans: map[string]Plan{"n1": {Action: "change", Summary: "would run", Changes: []event.Change{{Name: "x", From: "a", To: "b"}}}}},
		},
		Assertions:       []Assertion{{Step: "assert.b", Host: "n1", Name: "c", Measured: "1", Verdict: "fail"}},
		Dropped:          []Dropped{{Step: "shell.a", Host: "n3", Reason: "unreachable"}},
		Warnings:         []event.Warning{{Host: "n1", Message: "w"}},
		PlannedSteps:     []string{"shell.a", "assert.b"},
		Incomplete:       true,
		IncompleteReason: "never closed",
		Dir:              "/not/encoded",
	}
	least := Record{Version: Version, Status: "running", Steps: []Step{}, Assertions: []Assertion{},
		Tallies: map[string]event.Tally{}}
	nils := Record{} // Steps, Assertions, Tallies nil: null, as encoding/json writes them
	for name, rec := range map[string]*Record{"full": &full, "least": &least, "nils": &nils} {
		t.Run(name, func(t *testing.T) {
			got, err := appendRunJSON(nil, rec, nil)
			if err != nil {
				t.Fatal(err)
			}
			if want := slowRunJSON(t, rec); !bytes.Equal(got, want) {
				t.Errorf("appendRunJSON:\n%s\nencoding/json:\n%s", got, want)
			}
			var back Record
			if err := json.Unmarshal(got, &back); err != nil {
				t.Errorf("run.json does not decode: %v", err)
			}
		})
	}
}

func TestRunJSONRefusesWhatJSONCannotHold(t *testing.T) {
	var nan float64
	nan = nan / nan
	rec := Record{Steps: []Step{{Step: "s", DurationS: nan}}}
	if _, err := appendRunJSON(nil, &rec, nil); err == nil {
		t.Error("a NaN duration was encoded")
	}
}

// Every member of Record is in recordHead, Steps or recordTail, in
// Record's order with Record's tags: a member added to Record and not
// there fails here instead of going missing from run.json.
func TestRecordHeadAndTailCoverRecord(t *testing.T) {
	var want, got []string
	rt := reflect.TypeFor[Record]()
	for i := range rt.NumField() {
		f := rt.Field(i)
		if f.Tag.Get("json") == "-" {
			continue
		}
		want = append(want, f.Name+" "+f.Type.String()+" "+string(f.Tag))
	}
	add := func(t reflect.Type) {
		for i := range t.NumField() {
			f := t.Field(i)
			got = append(got, f.Name+" "+f.Type.String()+" "+string(f.Tag))
		}
	}
	add(reflect.TypeFor[recordHead]())
	steps, _ := rt.FieldByName("Steps")
	got = append(got, "Steps "+steps.Type.String()+" "+string(steps.Tag))
	add(reflect.TypeFor[recordTail]())
	if !reflect.DeepEqual(got, want) {
		t.Errorf("recordHead + Steps + recordTail:\n%q\nRecord:\n%q", got, want)
	}
	// appendStep writes Step's members by hand.
	var members []string
	st := reflect.TypeFor[Step]()
	for i := range st.NumField() {
		members = append(members, st.Field(i).Name+" "+string(st.Field(i).Tag))
	}
	wantStep := []string{`Step json:"step"`, `Module json:"module,omitempty"`, `Name json:"name,omitempty"`,
		`Finished json:"finished"`, `DurationS json:"duration_s,omitempty"`, `Hosts json:"hosts"`, `Plans json:"plans,omitempty"`}
	if !reflect.DeepEqual(members, wantStep) {
		t.Errorf("Step's members changed: update appendStep\n%q", members)
	}
}

// FuzzRunJSON: whatever a step's and a host's names and results hold,
// appendRunJSON writes what encoding/json writes.
func FuzzRunJSON(f *testing.F) {
	f.Add("shell.a", "n1", "ok", "msg", "stdout", 0.5, "k", "v", true, "plan")
	f.Add("s\u2028", "<&>", "failed", "\xff", "", -1e21, "", "\x00", false, "")
	f.Fuzz(func(t *testing.T, step, host, status, msg, raw string, dur float64, key, val string, flag bool, plan string) {
		hr := HostResult{Status: event.Status(status), Message: msg, DurationS: dur,
			Result: map[string]any{key: val, "flag": flag, "list": []any{dur, val}}}
		if raw != "" {
			hr.Raw = map[string]string{raw: val}
		}
		st := Step{Step: step, Name: msg, Finished: flag, DurationS: dur, Hosts: map[string]HostResult{host: hr, host + "x": {Status: event.OK}}}
		if plan != "" {
			st.Plans = map[string]Plan{host: {Action: plan}}
		}
		rec := Record{Version: 4, Status: status, Steps: []Step{st}, Tallies: map[string]event.Tally{host: {OK: 1}}}
		got, err := appendRunJSON(nil, &rec, nil)
		var b bytes.Buffer
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false)
		werr := enc.Encode(&rec)
		if (err != nil) != (werr != nil) {
			t.Fatalf("appendRunJSON error %v, encoding/json error %v", err, werr)
		}
		if err == nil && !bytes.Equal(got, b.Bytes()) {
			t.Fatalf("appendRunJSON:\n%s\nencoding/json:\n%s", got, b.Bytes())
		}
	})
}

// BenchmarkRunJSON: run.json of the fan-out's record (10 shell steps x 200
// hosts), by appendRunJSON and by encoding/json.
func BenchmarkRunJSON(b *testing.B) {
	rec := Record{Version: Version, Status: "ok", Tallies: map[string]event.Tally{}, Assertions: []Assertion{}}
	for s := range 10 {
		st := Step{Step: "shell.s" + string(rune('0'+s)), Module: "shell", Finished: true, DurationS: 0.5, Hosts: map[string]HostResult{}}
		for h := range 200 {
			st.Hosts["h"+string(rune('a'+h%26))+string(rune('a'+h/26))] = HostResult{Status: event.Changed, DurationS: 0.0123456,
				Result: map[string]any{"rc": 0.0, "changed": true, "cmd": "true"}}
		}
		rec.Steps = append(rec.Steps, st)
	}
	b.Run("appendRunJSON", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := appendRunJSON(nil, &rec, nil); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("encoding-json", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			slowRunJSON(b, &rec)
		}
	})
}

// writeRunFile's encoder fails after writing part of run.json: the old
// run.json stays whole, no temporary file is left, and the record's error
// names the encoding.
func TestRunFileEncodeErrorKeepsTheOldFile(t *testing.T) {
	dir := t.TempDir()
	if err := writeFile(dir, runFile, []byte("{\"old\":true}\n"), true); err != nil {
		t.Fatal(err)
	}
	var nan float64
	nan = nan / nan
	w := &Writer{dir: dir, builder: newBuilder(nil, Record{Version: Version,
		Steps: []Step{{Step: "ok", Finished: true}, {Step: "bad", DurationS: nan}}})}
	if err := w.writeRunFile(); err == nil {
		t.Fatal("a NaN duration was written")
	}
	if w.err == nil || !strings.Contains(w.err.Error(), "encode run.json") {
		t.Errorf("record error %v: want the encoding's", w.err)
	}
	b, err := os.ReadFile(filepath.Join(dir, runFile))
	if err != nil || string(b) != "{\"old\":true}\n" {
		t.Errorf("run.json %q, %v: want the old file", b, err)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Errorf("%d files left in the record, want run.json alone", len(ents))
	}
}

// writeRunJSON writes a step at a time (not the whole file in one write),
// and its bytes are appendRunJSON's.
func TestWriteRunJSONStreamsSteps(t *testing.T) {
	rec := Record{Version: Version, Status: "ok", Tallies: map[string]event.Tally{}, Assertions: []Assertion{}}
	for _, s := range []string{"a", "b", "c"} {
		rec.Steps = append(rec.Steps, Step{Step: s, Finished: true, Hosts: map[string]HostResult{"n1": {Status: "ok"}}})
	}
	var cw countingWriter
	if err := writeRunJSON(&cw, &rec, nil); err != nil {
		t.Fatal(err)
	}
	want, err := appendRunJSON(nil, &rec, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(cw.buf.Bytes(), want) {
		t.Errorf("streamed:\n%s\nappended:\n%s", cw.buf.Bytes(), want)
	}
	if cw.writes != len(rec.Steps)+1 {
		t.Errorf("%d writes, want one per step and one for the tail", cw.writes)
	}
}

type countingWriter struct {
	buf    bytes.Buffer
	writes int
}

func (c *countingWriter) Write(p []byte) (int, error) { c.writes++; return c.buf.Write(p) }
