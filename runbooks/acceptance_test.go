package runbooks

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/provadev/prova/internal/cli"
	"github.com/provadev/prova/internal/evidence/record"
	"github.com/provadev/prova/lab/labtest"
)

// prova runs the CLI in-process and returns its exit status and output.
func prova(t *testing.T, args ...string) (int, string) {
	t.Helper()
	var out, errb bytes.Buffer
	rc := cli.Main(append(args, "--color", "never"), strings.NewReader(""), &out, &errb)
	return rc, out.String() + errb.String()
}

// latestRun returns the newest run record under root.
func latestRun(t *testing.T, root string) *record.Record {
	t.Helper()
	dir, err := record.Latest(root)
	if err != nil {
		t.Fatal(err)
	}
	rec, err := record.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	return rec
}

// failedHosts lists the hosts with a failed assertion in rec.
func failedHosts(rec *record.Record) []string {
	var out []string
	for _, a := range rec.Assertions {
		if a.Verdict == "fail" && !slices.Contains(out, a.Host) {
			out = append(out, a.Host)
		}
	}
	slices.Sort(out)
	return out
}

func need(t *testing.T, tool string) bool {
	if _, err := exec.LookPath(tool); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s is required in CI", tool)
		}
		t.Logf("%s not installed: skipping that check", tool)
		return false
	}
	return true
}

// The acceptance suite end to end on the lab: a 4-node run with all four
// report formats; an expansion by two nodes, one behind a firewall; the
// suite against the baseline (whole cluster, then --only-new) flags exactly
// that node with its cause; a waiver turns the failure into a waived result
// until its expiry date.
func TestAcceptanceExpansionBaselineWaiver(t *testing.T) {
	if testing.Short() {
		t.Skip("lab test")
	}
	l := labtest.Start(t, 4, "../examples/lab/acceptance.hcl")
	inv := l.InventoryPath()
	runs := filepath.Join(t.TempDir(), "runs")
	common := []string{"-i", inv, "--record-dir", runs, "--ssh-config", "none", "--var", `verbs_ports=["mlx5_0/1"]`, "--var", "settle_delay=1s"}
	acc := append([]string{"apply", "rdma-acceptance.hcl"}, common...)
	acc = append(acc, "--var", "settle_retries=1", "--var", "run_nvmeof=true", "--var", "target_address=10.10.0.100",
		"--var", "nqn=nqn.2024-01.dev.prova:lab-target1", "--var", "runtime=2s")

	if rc, out := prova(t, append([]string{"apply", "gpfs-verbs-rdma.hcl", "--var", "restart_poll=1s"}, common...)...); rc != 0 {
		t.Fatalf("configure: rc %d\n%s", rc, out)
	}
	if rc, out := prova(t, acc...); rc != 0 {
		t.Fatalf("acceptance on a healthy cluster: rc %d\n%s", rc, out)
	}
	base := latestRun(t, runs)

	// All four report formats from the real run.
	if rc, out := prova(t, "report", base.Dir, "--format", "md,html,junit,json"); rc != 0 {
		t.Fatalf("report: rc %d\n%s", rc, out)
	}
	md, _ := os.ReadFile(filepath.Join(base.Dir, "report.md"))
	for _, want := range []string{"Three lines: RDMA vs TCP", "| gpfs01 | latency |", "| gpfs01 | cpu |", "| gpfs01 | bandwidth |"} {
		if !bytes.Contains(md, []byte(want)) {
			t.Errorf("report.md lacks %q", want)
		}
	}
	var js struct {
		Verdict string `json:"verdict"`
	}
	b, _ := os.ReadFile(filepath.Join(base.Dir, "report.json"))
	if err := json.Unmarshal(b, &js); err != nil || js.Verdict != "pass" {
		t.Errorf("report.json verdict %q (%v)", js.Verdict, err)
	}
	if need(t, "xmllint") {
		if out, err := exec.Command("xmllint", "--noout", "--schema", "../internal/evidence/report/testdata/junit.xsd",
			filepath.Join(base.Dir, "report.junit.xml")).CombinedOutput(); err != nil {
			t.Errorf("JUnit report does not validate: %v\n%s", err, out)
		}
	}
	if need(t, "chromium") {
		dom, err := exec.Command("chromium", "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
			"--disable-component-update", "--disable-sync", "--no-first-run", "--user-data-dir="+t.TempDir(),
			"--dump-dom", "file://"+filepath.Join(base.Dir, "report.html")).Output()
		if err != nil {
			t.Errorf("chromium: %v", err)
		}
		for _, id := range []string{`id="three-lines"`, `id="chart-latency"`, `id="chart-cpu"`, `id="chart-peers"`, `id="assertions"`} {
			if !bytes.Contains(dom, []byte(id)) {
				t.Errorf("rendered report has no element %s", id)
			}
		}
	}

	// Expansion: gpfs05 healthy, gpfs06 behind a firewall.
	if err := l.Expand(2); err != nil {
		t.Fatal(err)
	}
	rc, out := prova(t, append(acc, "--baseline", base.Dir)...)
	rec := latestRun(t, runs)
	if rc != 1 || !slices.Equal(failedHosts(rec), []string{"gpfs06"}) {
		t.Fatalf("after the expansion, only gpfs06 may fail: rc %d, failed %v\n%s", rc, failedHosts(rec), out)
	}
	if !strings.Contains(out, "new hosts: gpfs05, gpfs06") || !strings.Contains(out, "cause connect_failed") {
		t.Errorf("the run must compare with the baseline and name the cause:\n%s", out)
	}

	// --only-new: a fast re-acceptance of the two new nodes.
	rc, out = prova(t, append(acc, "--baseline", base.Dir, "--only-new", "--var", "run_latency=false", "--var", "run_nvmeof=false")...)
	rec = latestRun(t, runs)
	if rc != 1 || !slices.Equal(rec.Meta.Hosts, []string{"gpfs05", "gpfs06"}) || !slices.Equal(failedHosts(rec), []string{"gpfs06"}) {
		t.Fatalf("--only-new: rc %d, hosts %v, failed %v\n%s", rc, rec.Meta.Hosts, failedHosts(rec), out)
	}

	// A waiver turns the failure into a waived result until it expires.
	waivers := filepath.Join(t.TempDir(), "waivers.hcl")
	write := func(expires string) {
		os.WriteFile(waivers, []byte(`waiver "gpfs06-firewall" {
  assertion     = "assert.rdma_peers"
  hosts         = ["gpfs06"]
  justification = "firewall change CHG-1234 scheduled"
  expires       = "`+expires+`"
}
`), 0o644)
	}
	write("2099-12-31")
	rc, out = prova(t, "report", rec.Dir, "--format", "json", "--out", "-", "--waivers", waivers)
	if rc != 0 || !strings.Contains(out, `"verdict": "waived"`) {
		t.Errorf("live waiver: rc %d\n%s", rc, out)
	}
	write("2020-01-01")
	rc, out = prova(t, "report", rec.Dir, "--format", "md", "--out", "-", "--waivers", waivers)
	if rc != 0 || !strings.Contains(out, "expired") || !strings.Contains(out, "**Verdict: FAIL**") {
		t.Errorf("expired waiver must fail again: rc %d\n%s", rc, out)
	}
}
