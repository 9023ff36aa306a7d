package report_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/provadev/prova/engine/event"
	"github.com/provadev/prova/internal/evidence/baseline"
	"github.com/provadev/prova/internal/evidence/record"
	"github.com/provadev/prova/internal/evidence/report"
)

// killedRecord writes a record whose process "died" in the middle of the
// second step: events written, no Close.
func killedRecord(t *testing.T) string {
	t.Helper()
	w, err := record.Create(t.TempDir(), record.Meta{RunID: "20261130T021500Z-dead00", Mode: "apply", Runbook: "v.hcl", Started: now,
		Hosts: []string{"n1", "n2"}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range []event.Event{
		event.RunStarted{Mode: "apply", Hosts: []string{"n1", "n2"}, Steps: []string{"shell.a", "assert.b"}},
		event.StepStarted{Step: "shell.a", Module: "shell", Name: "a", Hosts: []string{"n1", "n2"}},
		event.HostFinished{Step: "shell.a", Host: "n1", Status: event.Changed},
		event.HostStarted{Step: "shell.a", Host: "n2"},
	} {
		w.Observe(e)
	}
	return w.Dir()
}

// TestIncompleteRendersAsIncomplete: a killed run's record is not a pass
// in any format.
func TestIncompleteRendersAsIncomplete(t *testing.T) {
	rec := load(t, killedRecord(t))
	r := report.Build(rec, report.Options{Now: now})
	if r.Verdict() != "incomplete" {
		t.Fatalf("verdict %s", r.Verdict())
	}
	render := func(f report.Format) string {
		var b bytes.Buffer
		if err := r.Write(&b, f); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	if md := render(report.Markdown); !strings.Contains(md, "**Verdict: INCOMPLETE**: the run never closed its record") {
		t.Errorf("markdown:\n%s", md)
	}
	if h := render(report.HTML); !strings.Contains(h, `class="verdict verdict-incomplete"`) || !strings.Contains(h, "Verdict: INCOMPLETE") {
		t.Errorf("html verdict missing")
	}
	j := render(report.JUnit)
	if !strings.Contains(j, `type="incomplete"`) || strings.Contains(j, `errors="0"`) {
		t.Errorf("junit:\n%s", j)
	}
	dir := t.TempDir()
	xmlFile := filepath.Join(dir, "r.xml")
	if err := os.WriteFile(xmlFile, []byte(j), 0o644); err != nil {
		t.Fatal(err)
	}
	xmllint(t, xmlFile)
	var doc struct {
		Verdict    string `json:"verdict"`
		Incomplete bool   `json:"incomplete"`
	}
	js := render(report.JSON)
	if err := json.Unmarshal([]byte(js), &doc); err != nil || doc.Verdict != "incomplete" || !doc.Incomplete {
		t.Errorf("json verdict %+v, %v", doc, err)
	}
	// The JSON report of an incomplete run is refused as a baseline too.
	jf := filepath.Join(dir, "report.json")
	if err := os.WriteFile(jf, []byte(js), 0o644); err != nil {
		t.Fatal(err)
	}
	var ie *baseline.IncompleteError
	if _, err := baseline.Load(jf); err == nil || !errorsAs(err, &ie) {
		t.Errorf("incomplete JSON report accepted as a baseline: %v", err)
	}
	if _, err := baseline.Load(rec.Dir); err == nil || !strings.Contains(err.Error(), "--force-baseline") {
		t.Errorf("incomplete record accepted as a baseline: %v", err)
	}
	forced, err := baseline.LoadForce(rec.Dir)
	if err != nil {
		t.Fatal(err)
	}
	// Forced, it vouches only for hosts that finished its last planned step: none.
	if got := baseline.OnlyNew([]string{"n1", "n2", "n3"}, forced); strings.Join(got, ",") != "n1,n2,n3" {
		t.Errorf("--only-new against a killed baseline: %v", got)
	}
}

func errorsAs(err error, target any) bool { return errors.As(err, target) }
