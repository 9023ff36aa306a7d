package runbooks

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/provadev/prova/engine/event"
	"github.com/provadev/prova/lab/labtest"
	"github.com/provadev/prova/runbooks/runbooktest"
)

// A node whose SSH server is down and a node that drops the connection in
// the middle of a command are reported unreachable and drop out; the rest
// of the run completes on the other nodes.
func TestLabUnreachableNodesDropOut(t *testing.T) {
	if testing.Short() {
		t.Skip("lab test")
	}
	l := labtest.Start(t, 6, "../examples/lab/faults-ssh.hcl")
	rb := filepath.Join(t.TempDir(), "rb.hcl")
	os.WriteFile(rb, []byte(`
step "shell" "sample" {
  hosts        = "all:!gpfs05"
  command      = "mpstat 1 1"
  changed_when = false
}
step "shell" "after" {
  hosts        = "all:!gpfs05"
  command      = "ofed_info -s"
  changed_when = false
}
`), 0o644)
	r := runbooktest.Run(t, l, rb, runbooktest.Options{})
	status := map[string]event.Status{}
	ran := map[string]bool{}
	for _, e := range r.Events {
		if hf, ok := e.(event.HostFinished); ok {
			if hf.Step == "shell.sample" {
				status[hf.Host] = hf.Status
			}
			if hf.Step == "shell.after" {
				ran[hf.Host] = hf.Status == event.OK
			}
		}
	}
	want := map[string]event.Status{"gpfs01": event.OK, "gpfs02": event.Unreachable, "gpfs03": event.OK,
		"gpfs04": event.Unreachable, "gpfs06": event.OK}
	for h, st := range want {
		if status[h] != st {
			t.Errorf("%s: %s, want %s", h, status[h], st)
		}
	}
	for _, h := range []string{"gpfs01", "gpfs03", "gpfs06"} {
		if !ran[h] {
			t.Errorf("%s did not complete the run", h)
		}
	}
	for _, h := range []string{"gpfs02", "gpfs04"} {
		if _, ok := ran[h]; ok {
			t.Errorf("unreachable %s ran a later step", h)
		}
	}
	if r.Outcome.Hosts["gpfs04"].Unreachable != 1 || !r.Outcome.Failed {
		t.Errorf("outcome: %+v", r.Outcome)
	}
}

// A node whose command hangs (faults-ssh.hcl: gpfs05 never answers
// "mmfsadm test verbs conn") is bounded by the run-wide step timeout: it
// fails naming the node, the other node finishes, and the run ends.
func TestLabHungNodeTimesOut(t *testing.T) {
	if testing.Short() {
		t.Skip("lab test")
	}
	l := labtest.Start(t, 6, "../examples/lab/faults-ssh.hcl")
	rb := filepath.Join(t.TempDir(), "rb.hcl")
	if err := os.WriteFile(rb, []byte(`
step "shell" "conn" {
  hosts        = ["gpfs01", "gpfs05"]
  command      = "mmfsadm test verbs conn || true"
  changed_when = false
  on_failure   = "continue"
}
step "shell" "after" {
  hosts        = ["gpfs01", "gpfs05"]
  command      = "ofed_info -s"
  changed_when = false
}
`), 0o644); err != nil {
		t.Fatal(err)
	}
	r := runbooktest.Run(t, l, rb, runbooktest.Options{StepTimeout: 3 * time.Second})
	got := map[string]event.HostFinished{}
	for _, f := range r.Finished("conn") {
		got[f.Host] = f
	}
	if f := got["gpfs05"]; f.Status != event.Failed || !strings.Contains(f.Message, "timed out after 3s (--step-timeout): gpfs05 did not answer in time") {
		t.Errorf("gpfs05 = %s %q, want failed naming the hung node", f.Status, f.Message)
	}
	if f := got["gpfs01"]; f.Status != event.OK {
		t.Errorf("gpfs01 = %s %q, want ok", f.Status, f.Message)
	}
	after := r.Finished("after")
	if len(after) != 2 {
		t.Errorf("the run did not go on after the hung node: %+v", after)
	}
}
