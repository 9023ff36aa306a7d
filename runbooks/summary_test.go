package runbooks_test

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/provadev/prova/engine/event"
	"github.com/provadev/prova/internal/testkit/golden"
	"github.com/provadev/prova/internal/ui"
	"github.com/provadev/prova/lab/labtest"
	"github.com/provadev/prova/runbooks/runbooktest"
)

// TestSummaryConsole48 runs the verify runbook on a 48-node lab where
// gpfs04 is behind a firewall and checks the console at default verbosity
// against a golden file (UPDATE_GOLDEN=1 rewrites it): one line per outcome
// per step, the culprit and its cause in the Findings block near the end.
// Durations and progress are left out of the replay: they vary run to run.
func TestSummaryConsole48(t *testing.T) {
	sc := scenario(t, "gpfs-firewall.hcl")
	l := labtest.Start(t, 48, sc)
	c := labtest.Client(t, l, "gpfs01")
	for _, cmd := range []string{`mmchconfig verbsRdma=enable,verbsPorts="mlx5_0/1 mlx5_1/1"`, "mmshutdown -a", "mmstartup -a"} {
		if r := labtest.MustRun(t, c, cmd); r.Status != 0 {
			t.Fatalf("%s: %+v", cmd, r)
		}
	}
	r := runbooktest.Run(t, l, verifyRunbook, runbooktest.Options{Vars: append([]string{"settle_retries=2", "settle_delay=3s"}, ports)})
	var b bytes.Buffer
	con := ui.NewConsole(&b, ui.Options{Color: "never"})
	for _, e := range r.Events {
		switch e := event.Value(e).(type) {
		case event.Progress, event.HostStarted:
			continue
		case event.HostFinished:
			e.Duration = 0
			con.Observe(e)
		case event.StepFinished:
			e.Duration = 0
			con.Observe(e)
		case event.RunFinished:
			e.Duration = 0
			con.Observe(e)
		default:
			con.Observe(e)
		}
	}
	out := b.String()
	lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
	if len(lines) > 80 {
		t.Errorf("%d console lines, want at most 80", len(lines))
	}
	last := strings.Join(lines[max(0, len(lines)-15):], "\n")
	if !strings.Contains(last, "gpfs04") || !strings.Contains(last, "connect_failed") {
		t.Errorf("the culprit gpfs04 and its cause connect_failed are not in the last 15 lines:\n%s", last)
	}
	golden.Check(t, filepath.Join("testdata", "summary48.golden"), b.Bytes())
}
