package ui

import (
	"bufio"
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/provadev/prova/engine/event"
	"github.com/provadev/prova/internal/evidence/findings"
	"github.com/provadev/prova/internal/redact"
)

// TestJSONSummaryAndNoOutput: without WithOutput no output line is
// written, and the stream ends with a summary naming each failed and
// warned host with step, cause and message.
func TestJSONSummaryAndNoOutput(t *testing.T) {
	events := []event.Event{
		event.RunStarted{RunID: "r1", Mode: "apply", Hosts: []string{"gpfs01", "gpfs02", "gpfs04"}},
		event.Output{Step: "verbs_conn.conn", Host: "gpfs04", Stream: "stdout", Line: "conn 0 RTS"},
		event.HostFinished{Step: "verbs_diagnose.diag", Host: "gpfs04", Status: event.OK,
			Result: map[string]any{"cause": "connect_failed", "missing": []any{"gpfs01", "gpfs02"}}},
		event.HostFinished{Step: "verbs_diagnose.diag", Host: "gpfs01", Status: event.OK,
			Result: map[string]any{"cause": "peer_side", "missing": []any{"gpfs04"}}},
		event.HostFinished{Step: "assert.rdma", Host: "gpfs04", Status: event.Failed, Message: "0 of 2 peers over RDMA, token " + secret},
		event.HostFinished{Step: "assert.rdma", Host: "gpfs01", Status: event.Warned, Message: "1 of 2 peers"},
		event.HostFinished{Step: "assert.rdma", Host: "gpfs02", Status: event.OK},
		event.RunFinished{RunID: "r1", Mode: "apply", Failed: true, Hosts: map[string]event.Tally{"gpfs01": {}, "gpfs02": {}, "gpfs04": {}}},
	}
	var b bytes.Buffer
	j := NewJSON(&b, redact.New(secret))
	for _, e := range events {
		j.Observe(e)
	}
	if err := j.Err(); err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(b.Bytes(), []byte(`"type":"output"`)) || bytes.Contains(b.Bytes(), []byte(secret)) {
		t.Fatalf("output line or secret in the stream:\n%s", b.String())
	}
	var lines []string
	sc := bufio.NewScanner(&b)
	for sc.Scan() {
		lines = append(lines, sc.Text())
	}
	if len(lines) != len(events) { // one output left out, one summary added
		t.Fatalf("%d lines for %d events", len(lines), len(events))
	}
	last := lines[len(lines)-1]
	if !strings.HasPrefix(last, `{"type":"summary",`) {
		t.Fatalf("last line is not the summary: %s", last)
	}
	var s struct {
		Status string             `json:"status"`
		Hosts  int                `json:"hosts"`
		Failed []findings.Finding `json:"failed"`
		Warned []findings.Finding `json:"warned"`
		Causes []findings.Group   `json:"causes"`
	}
	if err := json.Unmarshal([]byte(last), &s); err != nil {
		t.Fatal(err)
	}
	want := []findings.Finding{{Host: "gpfs04", Step: "assert.rdma", Status: event.Failed, Cause: "connect_failed",
		Message: "0 of 2 peers over RDMA, token " + redact.Placeholder, Peers: []string{"gpfs01", "gpfs02"}}}
	if d := cmp.Diff(want, s.Failed); d != "" {
		t.Errorf("failed (-want +got):\n%s", d)
	}
	if len(s.Warned) != 1 || s.Warned[0].Host != "gpfs01" || s.Warned[0].Cause != "peer_side" || s.Warned[0].Step != "assert.rdma" {
		t.Errorf("warned = %+v", s.Warned)
	}
	if s.Status != "failed" || s.Hosts != 3 || len(s.Causes) != 2 || s.Causes[0].Cause != "connect_failed" {
		t.Errorf("summary = %+v", s)
	}

	// --json-output keeps the lines.
	b.Reset()
	j = NewJSON(&b, redact.New(secret)).WithOutput(true)
	j.Observe(events[1])
	if !strings.Contains(b.String(), `"type":"output"`) {
		t.Errorf("WithOutput(true) left the output out: %s", b.String())
	}
}
