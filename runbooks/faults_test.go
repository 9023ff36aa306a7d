package runbooks

import (
	"os"
	"path/filepath"
	"testing"

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
