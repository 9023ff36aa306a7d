package runbooks_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/provadev/prova/engine/apply"
	"github.com/provadev/prova/engine/program"
	"github.com/provadev/prova/inventory"
	"github.com/provadev/prova/lab"
	"github.com/provadev/prova/lab/labtest"
	"github.com/provadev/prova/runbooks/runbooktest"
)

const (
	rdmaRunbook   = "gpfs-verbs-rdma.hcl"
	verifyRunbook = "gpfs-verbs-verify.hcl"
)

var ports = `verbs_ports=["mlx5_0/1","mlx5_1/1"]`

func TestGPFSRunbooksValidate(t *testing.T) {
	inv, diags := inventory.FromList("gpfs01,gpfs02,gpfs03")
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	for _, rb := range []string{rdmaRunbook, verifyRunbook} {
		prog, scope := runbooktest.Load(t, rb, inv, runbooktest.Options{Vars: []string{ports}})
		if d := program.Validate(prog, scope); d.HasErrors() {
			t.Errorf("%s: %s", rb, d.Error())
		}
	}
}

// scenario returns the lab scenario file; a missing one fails the test (the
// scenarios ship with the repository). Short mode skips lab tests.
func scenario(t *testing.T, name string) string {
	t.Helper()
	p, err := filepath.Abs(filepath.Join("..", "examples", "lab", name))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(p); err != nil {
		t.Fatalf("lab scenario %s is missing: %v", name, err)
	}
	if testing.Short() {
		t.Skip("lab test")
	}
	return p
}

var (
	settle = []string{ports, "settle_retries=3", "settle_delay=500ms"}
	fast   = append([]string{"restart_poll=200ms", "restart_wait=30s"}, settle...)
)

// writes are the commands that change a GPFS cluster.
var writes = []string{"mmchconfig", "mmshutdown", "mmstartup"}

func audit(t *testing.T, l *lab.Lab) map[string][]lab.AuditEntry {
	t.Helper()
	out := map[string][]lab.AuditEntry{}
	for _, n := range l.Nodes() {
		a, err := lab.ReadAudit(l.Dir(), n.Name)
		if err != nil {
			t.Fatal(err)
		}
		out[n.Name] = a
	}
	return out
}

func commands(a map[string][]lab.AuditEntry, word string) []string {
	var out []string
	for node, es := range a {
		for _, e := range es {
			if strings.Contains(e.Command, word) {
				out = append(out, node+": "+e.Command)
			}
		}
	}
	slices.Sort(out)
	return out
}

func TestLabHealthy(t *testing.T) {
	l := labtest.Start(t, 0, scenario(t, "gpfs-healthy.hcl"))
	r := runbooktest.Run(t, l, rdmaRunbook, runbooktest.Options{Vars: fast})
	if r.Outcome.Failed {
		t.Fatalf("healthy cluster failed:\n%s", r.Describe())
	}
	for _, f := range r.Finished("diag") {
		if f.Result["healthy"] != true {
			t.Errorf("%s: %v", f.Host, f.Result["explanation"])
		}
	}
	// A second apply changes nothing and restarts nothing.
	before := audit(t, l)
	r = runbooktest.Run(t, l, rdmaRunbook, runbooktest.Options{Vars: fast})
	if r.Outcome.Failed || r.Outcome.Changes != 0 {
		t.Fatalf("second apply: failed %t, %d changes\n%s", r.Outcome.Failed, r.Outcome.Changes, r.Describe())
	}
	after := audit(t, l)
	for node := range after {
		for _, e := range after[node][len(before[node]):] {
			if strings.Contains(e.Command, "mmshutdown") || strings.Contains(e.Command, "mmchconfig") {
				t.Errorf("second apply ran %q on %s", e.Command, node)
			}
		}
	}
}

func TestLabPlanChangesNothing(t *testing.T) {
	l := labtest.Start(t, 0, scenario(t, "gpfs-healthy.hcl"))
	r := runbooktest.Run(t, l, rdmaRunbook, runbooktest.Options{Vars: fast, Mode: apply.ModePlan})
	if len(r.Outcome.Diagnostics) > 0 {
		t.Fatalf("plan: %s", r.Outcome.Diagnostics.Error())
	}
	for node, es := range audit(t, l) {
		for _, e := range es {
			// The audit cannot classify the transport's "# prova-run:" tag
			// line, so "unknown" is allowed; a state write or an mm command
			// that changes the cluster is not.
			if e.Changed == lab.ChangedYes || slices.ContainsFunc(writes, func(w string) bool { return strings.Contains(e.Command, w) }) {
				t.Errorf("plan ran %q on %s (changed %s, writes %v)", e.Command, node, e.Changed, e.StateWrites)
			}
		}
	}
}

// diagnosis runs the full runbook on a faulty scenario and returns each
// node's cause and explanation.
func diagnosis(t *testing.T, name string) (runbooktest.Result, map[string]string, map[string]string) {
	t.Helper()
	l := labtest.Start(t, 0, scenario(t, name))
	// The faults would stop the preflight; skip it, as if the cluster had
	// been configured before the fault appeared.
	r := runbooktest.Run(t, l, rdmaRunbook, runbooktest.Options{Vars: fast, SkipTags: []string{"preflight"}})
	cause, expl := map[string]string{}, map[string]string{}
	for _, f := range r.Finished("diag") {
		cause[f.Host], _ = f.Result["cause"].(string)
		expl[f.Host], _ = f.Result["explanation"].(string)
	}
	if !r.Outcome.Failed {
		t.Errorf("%s: the run did not fail", name)
	}
	return r, cause, expl
}

func TestLabFaults(t *testing.T) {
	for _, tc := range []struct{ scenario, node, cause, phrase string }{
		{"gpfs-wrong-port.hcl", "", "port_missing", "verbsPorts entry"},
		{"gpfs-no-ofed.hcl", "", "ofed_missing", "OFED is not installed"},
		{"gpfs-ofed-mismatch.hcl", "", "ofed_mismatch", "differs from"},
		{"gpfs-firewall.hcl", "", "connect_failed", "firewall"},
		{"gpfs-port-down.hcl", "", "port_down", "port is Down"},
		{"gpfs-pagepool.hcl", "", "pagepool_not_registered", "is too large to register with the HCA"},
	} {
		t.Run(tc.scenario, func(t *testing.T) {
			r, cause, expl := diagnosis(t, tc.scenario)
			found := false
			for node, c := range cause {
				if c == tc.cause && strings.Contains(expl[node], tc.phrase) && strings.Contains(expl[node], node) {
					found = true
				}
			}
			if !found {
				t.Errorf("no node diagnosed %s: %v\n%s", tc.cause, expl, r.Describe())
			}
			// The lab's mmdiag --network and mmfs.log are independent
			// witnesses of what its mmfsadm prints: they must agree.
			for node, e := range expl {
				if strings.Contains(e, "witnesses disagree") {
					t.Errorf("%s: %s", node, e)
				}
			}
			if tc.cause == "connect_failed" && !strings.Contains(expl["gpfs04"], "witnesses agree: verbs conn, mmdiag --network, GPFS log") {
				t.Errorf("gpfs04: %s", expl["gpfs04"])
			}
		})
	}
}

// An mmfsadm whose connection list prova cannot read fails the conn step
// on that node with a message naming the command, the host and the line,
// pointing at prova collect; it is never diagnosed as TCP fallback.
func TestLabVerbsConnUnreadable(t *testing.T) {
	l := labtest.Start(t, 0, scenario(t, "gpfs-verbs-conn-unreadable.hcl"))
	r := runbooktest.Run(t, l, rdmaRunbook, runbooktest.Options{Vars: append(fast, "settle_retries=0")})
	if !r.Outcome.Failed {
		t.Fatalf("the run did not fail:\n%s", r.Describe())
	}
	want := "prova could not read `mmfsadm test verbs conn` on gpfs04, line 3: "
	found := false
	for _, f := range r.Finished("conn") {
		switch {
		case f.Host == "gpfs04":
			found = strings.HasPrefix(f.Message, want) && strings.Contains(f.Message, "prova collect") && !strings.Contains(f.Message, "TCP fallback)")
		case f.Status != "ok":
			t.Errorf("conn on %s: %s %s", f.Host, f.Status, f.Message)
		}
	}
	if !found {
		t.Fatalf("gpfs04's conn step does not say %q:\n%s", want, r.Describe())
	}
	for _, f := range r.Finished("diag") {
		if f.Host == "gpfs04" && f.Status == "ok" {
			t.Errorf("gpfs04 was diagnosed from output prova cannot read: %v", f.Result["explanation"])
		}
	}
}

// "conn" gives a usage message on gpfs04; "conns" works: every node is healthy.
func TestLabVerbsConnsSpelling(t *testing.T) {
	p := filepath.Join(t.TempDir(), "conns.hcl")
	src := strings.Replace(readScenario(t, "gpfs-verbs-conn-unreadable.hcl"), `verbs_conn_layout = "unreadable"`, `verbs_conn_layout = "conns_only"`, 1)
	if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	l := labtest.Start(t, 0, p)
	r := runbooktest.Run(t, l, rdmaRunbook, runbooktest.Options{Vars: fast})
	if r.Outcome.Failed {
		t.Fatalf("conns spelling:\n%s", r.Describe())
	}
}

func readScenario(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(scenario(t, name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestLabPagepoolRefused(t *testing.T) {
	l := labtest.Start(t, 0, scenario(t, "gpfs-healthy.hcl"))
	r := runbooktest.Run(t, l, rdmaRunbook, runbooktest.Options{Vars: append(fast, "pagepool=1T")})
	if !r.Outcome.Failed {
		t.Fatal("a 1T pagepool was not refused")
	}
	if got := commands(audit(t, l), "mmchconfig"); len(got) != 0 {
		t.Fatalf("mmchconfig ran: %q", got)
	}
}

func TestLabKilledBeforeRestart(t *testing.T) {
	l := labtest.Start(t, 0, scenario(t, "gpfs-healthy.hcl"))
	r := runbooktest.Run(t, l, rdmaRunbook, runbooktest.Options{Vars: fast, Tags: []string{"facts", "preflight", "configure"}})
	if r.Outcome.Failed || len(commands(audit(t, l), "mmchconfig")) != 1 || len(commands(audit(t, l), "mmshutdown")) != 0 {
		t.Fatalf("configure only:\n%s", r.Describe())
	}
	r = runbooktest.Run(t, l, rdmaRunbook, runbooktest.Options{Vars: fast})
	if r.Outcome.Failed || len(commands(audit(t, l), "mmshutdown")) == 0 {
		t.Fatalf("the re-run did not restart the pending nodes:\n%s", r.Describe())
	}
}

func TestLabRollingKeepsQuorum(t *testing.T) {
	l := labtest.Start(t, 0, scenario(t, "gpfs-healthy.hcl"))
	r := runbooktest.Run(t, l, rdmaRunbook, runbooktest.Options{Vars: fast})
	if r.Outcome.Failed {
		t.Fatalf("run failed:\n%s", r.Describe())
	}
	var seq []lab.AuditEntry
	for _, es := range audit(t, l) {
		for _, e := range es {
			if strings.Contains(e.Command, "mmshutdown") || strings.Contains(e.Command, "mmstartup") {
				seq = append(seq, e)
			}
		}
	}
	slices.SortFunc(seq, func(a, b lab.AuditEntry) int { return a.Time.Compare(b.Time) })
	down := 0
	for _, e := range seq {
		if strings.Contains(e.Command, "-a") {
			t.Fatalf("rolling restart ran %q", e.Command)
		}
		if strings.Contains(e.Command, "mmshutdown") {
			down++
		} else {
			down--
		}
		if down > 1 {
			t.Fatalf("two nodes down at once: %v", seq)
		}
	}
	if len(seq) == 0 {
		t.Fatal("no restart happened")
	}
}
