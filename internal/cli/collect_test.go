package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/provadev/prova/internal/support"
	"github.com/provadev/prova/lab"
	"github.com/provadev/prova/lab/labtest"
	"github.com/provadev/prova/lab/sim/gpfs"
)

func scenarioFile(t *testing.T, name string) string {
	t.Helper()
	p, err := filepath.Abs(filepath.Join("..", "..", "examples", "lab", name))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func run(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := Main(args, strings.NewReader(""), &out, &errb)
	return code, out.String(), errb.String()
}

// collect on the lab writes a bundle that parse --bundle replays with no
// failures, and the lab's audit log shows that nothing on the nodes changed.
func TestCollectOnLab(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a lab")
	}
	l := labtest.Start(t, 3, scenarioFile(t, "gpfs-healthy.hcl"))
	secret := l.Nodes()[0].Name + "-" + "secret"
	bundle := filepath.Join(t.TempDir(), "b.tar.gz")
	code, out, errs := run(t, "collect", "-i", l.InventoryPath(), "--out", bundle, "--redact", secret, "--ssh-config", "none")
	if code != 0 {
		t.Fatalf("collect exit %d\n%s%s", code, out, errs)
	}
	if !strings.Contains(out, "3 host(s)") || !strings.Contains(out, "0 output(s) prova could not read") {
		t.Errorf("collect said %q", out)
	}
	f, err := os.Open(bundle)
	if err != nil {
		t.Fatal(err)
	}
	b, err := support.Read(f)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	if len(b.Hosts) != 3 || b.Manifest.ProvaVersion == "" || len(b.Manifest.Unreachable) != 0 {
		t.Fatalf("manifest %+v", b.Manifest)
	}
	parsed := map[string]bool{}
	for _, h := range b.Hosts {
		if len(h.Results) != len(support.Probes) {
			t.Errorf("%s: %d results", h.Name, len(h.Results))
		}
		for _, r := range h.Results {
			if r.ParseError != "" {
				t.Errorf("%s %s: %s", h.Name, r.Probe, r.ParseError)
			}
			if r.Parsed != nil {
				parsed[r.Probe] = true
			}
		}
	}
	for _, p := range []string{"ibstat", "ofed_info", "mmlscluster", "mmlsconfig_y", "mmdiag_network", "mmfsadm_verbs_conn", "mmfs_log"} {
		if !parsed[p] {
			t.Errorf("probe %s was parsed on no host", p)
		}
	}
	replaysAndChangedNothing(t, l, bundle, "collect")
}

// A bundle whose output today's parser cannot read is reported per host
// and probe, and parse --bundle fails.
func TestParseBundleReportsFailures(t *testing.T) {
	b := &support.Bundle{Manifest: support.Manifest{Format: support.FormatVersion, ProvaVersion: "test", Hosts: []string{"gpfs07"}, Probes: support.Probes},
		Hosts: []support.Host{{Name: "gpfs07", Results: []support.Result{
			{Probe: "mmfsadm_verbs_conn", Command: "mmfsadm test verbs conn", Parser: "mmfsadm-verbs-conn",
				Stdout: "RDMA Connections between nodes:\n\n  [0] 10.0.0.2 gpfs02 qp=0x1 RTS\n"},
			{Probe: "ibstat", Command: "ibstat", Parser: "ibstat", RC: 127, Stderr: "sh: 1: ibstat: not found\n"},
			{Probe: "uname", Command: "uname -r", Stdout: "6.1.0\n"},
		}}}}
	file := filepath.Join(t.TempDir(), "b.tar.gz")
	var buf bytes.Buffer
	if err := b.Write(&buf); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, buf.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	code, out, _ := run(t, "parse", "--bundle", file)
	if code != 1 || !strings.Contains(out, "gpfs07  mmfsadm_verbs_conn  mmfsadm-verbs-conn  fails") || !strings.Contains(out, "line 3") ||
		!strings.Contains(out, "0 parsed, 1 fail, 0 changed, 1 not run on the host, 1 kept raw") {
		t.Fatalf("exit %d\n%s", code, out)
	}
	if err := os.WriteFile(file, []byte("not a bundle"), 0o600); err != nil {
		t.Fatal(err)
	}
	if code, _, errs := run(t, "parse", "--bundle", file); code != 1 || !strings.Contains(errs, "not a prova support bundle") {
		t.Fatalf("exit %d: %s", code, errs)
	}
}

// The support loop on the lab: gpfs04's mmfsadm prints a layout prova cannot
// read; collect records the parse error, and parse --bundle names the host,
// the probe and the line, and fails.
func TestCollectUnreadableOnLab(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a lab")
	}
	l := labtest.Start(t, 4, scenarioFile(t, "gpfs-verbs-conn-unreadable.hcl"))
	if err := gpfs.Seed(l.Dir(), gpfs.Settings{Settle: time.Millisecond, Config: map[string]string{"verbsRdma": "enable", "verbsPorts": "mlx5_0/1 mlx5_1/1"}}); err != nil {
		t.Fatal(err)
	}
	bundle := filepath.Join(t.TempDir(), "b.tar.gz")
	code, out, errs := run(t, "collect", "-i", l.InventoryPath(), "--limit", "gpfs01,gpfs04", "--out", bundle, "--ssh-config", "none")
	if code != 0 || !strings.Contains(out, "2 host(s)") || !strings.Contains(out, "1 output(s) prova could not read") {
		t.Fatalf("collect exit %d\n%s%s", code, out, errs)
	}
	code, out, _ = run(t, "parse", "--bundle", bundle)
	if code != 1 || !strings.Contains(out, "gpfs04  mmfsadm_verbs_conn") || !strings.Contains(out, "line 3") || strings.Contains(out, "gpfs01  mmfsadm_verbs_conn ") {
		t.Fatalf("parse --bundle exit %d\n%s", code, out)
	}
}

// collect RUNBOOK on the lab: the verify runbook's steps run as plan runs
// them, every command they ran is in the bundle under its step with its
// output, status and duration, what plan concluded is there per host and
// step, the audit log shows nothing changed, and parse --bundle replays it
// with no failure.
func TestCollectRunbookOnLab(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a lab")
	}
	l := labtest.Start(t, 3, scenarioFile(t, "gpfs-healthy.hcl"))
	if err := gpfs.Seed(l.Dir(), gpfs.Settings{Settle: time.Millisecond, Config: map[string]string{"verbsRdma": "enable", "verbsPorts": "mlx5_0/1 mlx5_1/1"}}); err != nil {
		t.Fatal(err)
	}
	runbook := filepath.Join("..", "..", "runbooks", "gpfs-verbs-verify.hcl")
	bundle := filepath.Join(t.TempDir(), "b.tar.gz")
	code, out, errs := run(t, "collect", "-i", l.InventoryPath(), "--out", bundle, "--ssh-config", "none",
		"--var", `verbs_ports=["mlx5_0/1","mlx5_1/1"]`, runbook)
	if code != 0 {
		t.Fatalf("collect exit %d\n%s%s", code, out, errs)
	}
	if !strings.Contains(out, "3 host(s)") || !strings.Contains(out, "gpfs-verbs-verify.hcl and the tool versions, 0 output(s) prova could not read") {
		t.Errorf("collect said %q", out)
	}
	f, err := os.Open(bundle)
	if err != nil {
		t.Fatal(err)
	}
	b, err := support.Read(f)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(b.Manifest.Runbook, "gpfs-verbs-verify.hcl") || b.Manifest.RunbookHash == "" || len(b.Hosts) != 3 {
		t.Fatalf("manifest %+v", b.Manifest)
	}
	for _, h := range b.Hosts {
		steps := map[string]support.StepOutcome{}
		for _, s := range h.Steps {
			steps[s.Step] = s
		}
		if len(steps) == 0 {
			t.Fatalf("%s: no step outcomes", h.Name)
		}
		byID := map[string]support.Result{}
		versions, parsed := 0, 0
		for _, r := range h.Results {
			byID[r.Probe] = r
			switch {
			case r.Step == "":
				versions++
			case r.Command == "" || r.DurationMS <= 0:
				t.Errorf("%s %s: command %q took %v ms", h.Name, r.Probe, r.Command, r.DurationMS)
			}
			if r.Step != "" && r.Parsed != nil {
				parsed++
			}
			if r.ParseError != "" {
				t.Errorf("%s %s: %s", h.Name, r.Probe, r.ParseError)
			}
		}
		if versions != len(support.VersionProbes()) || len(h.Results) <= versions {
			t.Errorf("%s: %d results, %d of them versions", h.Name, len(h.Results), versions)
		}
		// Every command is filed under a step that names it, and back.
		for _, s := range h.Steps {
			for _, id := range s.Commands {
				if r, ok := byID[id]; !ok || r.Step != s.Step {
					t.Errorf("%s: step %s lists %s, which is %+v", h.Name, s.Step, id, r)
				}
			}
		}
		// The verbs status step read mmfsadm's output: its stdout is kept.
		found := false
		for _, r := range h.Results {
			if strings.Contains(r.Command, "mmfsadm test verbs status") && strings.Contains(r.Stdout, "VERBS RDMA status: started") && r.RC == 0 {
				found = true
			}
		}
		if !found {
			t.Errorf("%s: no mmfsadm test verbs status output among %d results", h.Name, len(h.Results))
		}
		for id, s := range steps {
			if s.Action == "error" || s.Action == "unreachable" || s.Action == "would fail" {
				t.Errorf("%s: step %s planned %q: %s", h.Name, id, s.Action, s.Summary)
			}
		}
		t.Logf("%s: %d steps, %d commands, %d of them read by a parser", h.Name, len(h.Steps), len(h.Results)-versions, parsed)
	}
	replaysAndChangedNothing(t, l, bundle, "collect RUNBOOK")
}

// replaysAndChangedNothing checks that `prova parse --bundle` replays the
// bundle with no failure and that what made it (named by what) left no
// change in any node's audit log.
func replaysAndChangedNothing(t *testing.T, l *lab.Lab, bundle, what string) {
	t.Helper()
	code, out, errs := run(t, "parse", "--bundle", bundle)
	if code != 0 || !strings.Contains(out, " 0 fail, 0 changed") {
		t.Fatalf("parse --bundle exit %d\n%s%s", code, out, errs)
	}
	for _, n := range l.Nodes() {
		audit, err := lab.ReadAudit(l.Dir(), n.Name)
		if err != nil {
			t.Fatal(err)
		}
		if len(audit) == 0 {
			t.Fatalf("%s: empty audit log", n.Name)
		}
		for _, e := range audit {
			if e.Changed == lab.ChangedYes || len(e.StateWrites) > 0 {
				t.Errorf("%s changed %s: %q (writes %v)", what, n.Name, e.Command, e.StateWrites)
			}
		}
	}
}
