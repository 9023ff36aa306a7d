package runbooks_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/provadev/prova/lab"
	"github.com/provadev/prova/lab/labtest"
	"github.com/provadev/prova/runbooks/runbooktest"
)

// writeScenario writes a lab scenario into a temporary file.
func writeScenario(t *testing.T, src string) string {
	t.Helper()
	if testing.Short() {
		t.Skip("lab test")
	}
	p := filepath.Join(t.TempDir(), "scenario.hcl")
	if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// adminSeq returns the mmshutdown/mmstartup entries of node, by time.
func adminSeq(t *testing.T, l *lab.Lab, node string) []lab.AuditEntry {
	t.Helper()
	var out []lab.AuditEntry
	for _, e := range audit(t, l)[node] {
		if strings.Contains(e.Command, "mmshutdown") || strings.Contains(e.Command, "mmstartup") {
			out = append(out, e)
		}
	}
	slices.SortFunc(out, func(a, b lab.AuditEntry) int { return a.Time.Compare(b.Time) })
	return out
}

// nodesOf returns the node list of "... -N a,b" in an audited command.
func nodesOf(cmd string) []string {
	_, rest, ok := strings.Cut(cmd, " -N ")
	if !ok {
		return nil
	}
	return strings.Split(strings.Fields(rest)[0], ",")
}

// 18.6: a quorum node and NSD server that cannot be reached stops the
// GPFS runbook in preflight: no mmchconfig, no restart anywhere.
func TestLabUnreachableCoreNodeChangesNothing(t *testing.T) {
	l := labtest.Start(t, 0, writeScenario(t, `
cluster {
  name    = "lab.prova"
  servers = 2
  nodes   = 4
}
node "gpfs02" {
  faults {
    ssh_down = true
  }
}
`))
	r := runbooktest.Run(t, l, rdmaRunbook, runbooktest.Options{Vars: fast})
	if !r.Outcome.Failed {
		t.Fatalf("the run went on with gpfs02 unreachable:\n%s", r.Describe())
	}
	for _, w := range writes {
		if got := commands(audit(t, l), w); len(got) != 0 {
			t.Errorf("%s ran with a quorum node unreachable: %q", w, got)
		}
	}
}

// 18.6: a quorum node whose daemon is down (reachable, not running) also
// stops the run before any change.
func TestLabDownQuorumNodeChangesNothing(t *testing.T) {
	l := labtest.Start(t, 0, scenario(t, "gpfs-healthy.hcl"))
	labtest.MustRun(t, labtest.Client(t, l, "gpfs01"), "mmshutdown -N gpfs02")
	before := len(commands(audit(t, l), "mmshutdown"))
	r := runbooktest.Run(t, l, rdmaRunbook, runbooktest.Options{Vars: fast})
	if !r.Outcome.Failed || !strings.Contains(r.Describe(), "not running: gpfs02") {
		t.Fatalf("run with gpfs02 down:\n%s", r.Describe())
	}
	if got := commands(audit(t, l), "mmchconfig"); len(got) != 0 {
		t.Errorf("mmchconfig ran: %q", got)
	}
	if got := len(commands(audit(t, l), "mmshutdown")); got != before {
		t.Errorf("a restart ran")
	}
}

// 12.4: with four NSD servers (NSDs served by neighbours) and 20 clients,
// the rolling restart runs in waves; the audit log's timestamps show that
// two servers of one NSD were never down together and each wave came only
// after the one before was back.
func TestLabWavesNeverTakeBothServersOfAnNSD(t *testing.T) {
	l := labtest.Start(t, 0, writeScenario(t, `
cluster {
  name    = "lab.prova"
  servers = 4
  nodes   = 24
}
`))
	r := runbooktest.Run(t, l, rdmaRunbook, runbooktest.Options{Vars: append([]string{"restart_batch=25%"}, fast...)})
	if r.Outcome.Failed {
		t.Fatalf("run failed:\n%s", r.Describe())
	}
	seq := adminSeq(t, l, "gpfs01")
	// NSD k is served by gpfs0k and the next server round the ring.
	pairs := [][2]string{{"gpfs01", "gpfs02"}, {"gpfs02", "gpfs03"}, {"gpfs03", "gpfs04"}, {"gpfs04", "gpfs01"}}
	var waves [][]string
	for i, e := range seq {
		if !strings.Contains(e.Command, "mmshutdown") {
			continue
		}
		w := nodesOf(e.Command)
		waves = append(waves, w)
		for _, p := range pairs {
			if slices.Contains(w, p[0]) && slices.Contains(w, p[1]) {
				t.Errorf("%s and %s (one NSD) went down together: %s", p[0], p[1], e.Command)
			}
		}
		if i+1 >= len(seq) || !strings.Contains(seq[i+1].Command, "mmstartup") || !slices.Equal(nodesOf(seq[i+1].Command), w) {
			t.Fatalf("no mmstartup right after %q", e.Command)
		}
		if i > 0 && !seq[i-1].Time.Before(e.Time) {
			t.Errorf("wave %q started before the previous one was back", w)
		}
	}
	clients := 0
	for _, w := range waves {
		if strings.Compare(w[0], "gpfs04") > 0 {
			clients += len(w)
			if len(w) != 5 {
				t.Errorf("client wave of %d nodes: %q", len(w), w)
			}
		}
	}
	if clients != 20 || len(waves) < 6 {
		t.Errorf("waves %q", waves)
	}
}

// 12.4: 100 clients restart in waves of 20 (gpfs_restart alone, run from
// the admin node).
func TestLabHundredClientsInWaves(t *testing.T) {
	l := labtest.Start(t, 0, writeScenario(t, `
cluster {
  name    = "lab.prova"
  servers = 3
  nodes   = 103
}
`))
	rb := filepath.Join(t.TempDir(), "restart.hcl")
	os.WriteFile(rb, []byte(`
step "gpfs_restart" "clients" {
  hosts    = "gpfs01"
  run_once = true
  nodes    = group.clients
  batch    = 20
  interval = "200ms"
  max_wait = "1m"
}
`), 0o644)
	start := time.Now()
	r := runbooktest.Run(t, l, rb, runbooktest.Options{Timeout: 5 * time.Minute})
	if r.Outcome.Failed {
		t.Fatalf("run failed:\n%s", r.Describe())
	}
	var waves [][]string
	for _, e := range adminSeq(t, l, "gpfs01") {
		if strings.Contains(e.Command, "mmshutdown") {
			waves = append(waves, nodesOf(e.Command))
		}
	}
	if len(waves) != 5 {
		t.Fatalf("%d waves: %q", len(waves), waves)
	}
	for _, w := range waves {
		if len(w) != 20 {
			t.Errorf("wave of %d: %q", len(w), w)
		}
	}
	t.Logf("100 clients in 5 waves: %s (lab on a shared machine)", time.Since(start).Round(time.Second))
}

// 18.1: Ctrl-C during the restart of a node: prova brings that node back
// before it exits 130, and the run record's restarted list names it.
func TestLabInterruptFinishesTheRestartInFlight(t *testing.T) {
	l := labtest.Start(t, 0, scenario(t, "gpfs-healthy.hcl"))
	work := t.TempDir()
	runs := filepath.Join(work, "runs")
	cmd := exec.Command(labtest.Binary(t), "apply", "gpfs-verbs-rdma.hcl", "-i", l.InventoryPath(), "--record-dir", runs,
		"--ssh-config", "none", "--color", "never", "--var", `verbs_ports=["mlx5_0/1"]`, "--var", "restart_poll=200ms")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	deadline := time.Now().Add(90 * time.Second)
	var victim []string
	for victim == nil {
		if time.Now().After(deadline) {
			t.Fatalf("no restart started:\n%s", out.String())
		}
		for _, e := range adminSeq(t, l, "gpfs01") {
			if strings.Contains(e.Command, "mmshutdown -N") {
				victim = nodesOf(e.Command)
			}
		}
		time.Sleep(20 * time.Millisecond) // polling the audit log, bounded by the deadline
	}
	cmd.Process.Signal(os.Interrupt)
	err := cmd.Wait()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 130 {
		t.Fatalf("exit %v, want 130:\n%s", err, out.String())
	}
	st := labtest.MustRun(t, labtest.Client(t, l, "gpfs01"), "mmgetstate -a")
	for _, n := range victim {
		if !strings.Contains(st.Stdout, n) || !regexpActive(st.Stdout, n) {
			t.Errorf("%s is not active after the interrupt:\n%s", n, st.Stdout)
		}
	}
	dir, _ := filepath.Glob(filepath.Join(runs, "*", "run.json"))
	if len(dir) != 1 {
		t.Fatalf("records %v", dir)
	}
	b, _ := os.ReadFile(dir[0])
	for _, n := range victim {
		if !bytes.Contains(b, []byte(fmt.Sprintf("%q", n))) || !bytes.Contains(b, []byte("restarted")) {
			t.Errorf("the run record does not name %s as restarted", n)
		}
	}
	var rec struct {
		Status string `json:"status"`
	}
	json.Unmarshal(b, &rec)
	if rec.Status != "interrupted" {
		t.Errorf("record status %q", rec.Status)
	}
}

func regexpActive(table, node string) bool {
	for _, l := range strings.Split(table, "\n") {
		f := strings.Fields(l)
		if len(f) >= 3 && f[1] == node {
			return f[2] == "active"
		}
	}
	return false
}

// 18.1: a run killed (kill -9) between mmshutdown and mmstartup leaves the
// node down and its marker; the next run starts that node before anything
// else (even a quorum node, which would otherwise stop the preflight).
func TestLabNodeLeftDownByAKilledRunIsStartedFirst(t *testing.T) {
	l := labtest.Start(t, 0, scenario(t, "gpfs-healthy.hcl"))
	admin := labtest.Client(t, l, "gpfs01")
	// What a kill -9 right after "mmshutdown -N gpfs02" leaves behind
	// (reproduced exactly instead of racing a kill against mmstartup):
	labtest.MustRun(t, admin, `mkdir -p /var/mmfs/tmp && printf 'node=gpfs02\n' > /var/mmfs/tmp/prova-restart.inflight && mmshutdown -N gpfs02`)
	n := len(adminSeq(t, l, "gpfs01"))
	r := runbooktest.Run(t, l, rdmaRunbook, runbooktest.Options{Vars: fast})
	if r.Outcome.Failed {
		t.Fatalf("run failed:\n%s", r.Describe())
	}
	seq := adminSeq(t, l, "gpfs01")[n:]
	if len(seq) == 0 || !strings.HasSuffix(seq[0].Command, "PATH=$PATH:/usr/lpp/mmfs/bin mmstartup -N gpfs02") {
		t.Fatalf("the first restart command of the re-run is not the start of gpfs02: %v", seq)
	}
	if got := labtest.MustRun(t, admin, "cat /var/mmfs/tmp/prova-restart.inflight 2>/dev/null; mmgetstate -N gpfs02"); strings.Contains(got.Stdout, "node=") || !regexpActive(got.Stdout, "gpfs02") {
		t.Errorf("after the re-run:\n%s", got.Stdout)
	}
}

// 12.4: a node that does not come back from its restart halts the
// rollout: no further wave starts, the step fails naming it, the nodes not
// restarted stay pending.
func TestLabNodeThatStaysDownHaltsTheRollout(t *testing.T) {
	l := labtest.Start(t, 0, writeScenario(t, `
cluster {
  name    = "lab.prova"
  servers = 2
  nodes   = 4
}
node "gpfs03" {
  faults {
    gpfs_no_restart = true
  }
}
`))
	r := runbooktest.Run(t, l, rdmaRunbook, runbooktest.Options{Vars: append([]string{"restart_wait=3s", "restart_poll=200ms"}, settle...)})
	if !r.Outcome.Failed {
		t.Fatalf("the rollout went on:\n%s", r.Describe())
	}
	var msg string
	for _, f := range r.Finished("restart") {
		msg = f.Message
	}
	if !strings.Contains(msg, "not active after 3s: gpfs03 is down") || !strings.Contains(msg, "not restarted (still pending): gpfs04, gpfs01, gpfs02") {
		t.Fatalf("restart step: %q\n%s", msg, r.Describe())
	}
	for _, e := range adminSeq(t, l, "gpfs01") {
		if strings.Contains(e.Command, "mmshutdown") && !slices.Equal(nodesOf(e.Command), []string{"gpfs03"}) {
			t.Errorf("a wave started after gpfs03 did not come back: %s", e.Command)
		}
	}
}
