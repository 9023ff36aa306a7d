package gpfs

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/hcl/v2"

	"github.com/provadev/prova/lab/scenario"
	"github.com/provadev/prova/lab/sim"
)

// fakeLab is a lab directory with node models and a shared fake clock;
// tools run in-process (no SSH), for fast tests of the simulator's logic.
type fakeLab struct {
	t     *testing.T
	dir   string
	now   time.Time
	table *sim.Table
	names []string
	// Every other command runs with memo, as in the lab server, the
	// others without, as "prova lab sim" does: both paths and the memo's
	// invalidation by a write from outside it are exercised by every test.
	memo *sim.Memo
	runs int
}

type result struct {
	out, err string
	status   int
	writes   []string
}

func newFakeLab(t *testing.T, src string, nodes int) *fakeLab {
	t.Helper()
	sc := scenario.Healthy()
	if src != "" {
		var diags hcl.Diagnostics
		if sc, diags = scenario.Parse("test.hcl", []byte(src)); diags.HasErrors() {
			t.Fatal(diags)
		}
	}
	table, err := sim.NewTable(Tools()...)
	if err != nil {
		t.Fatal(err)
	}
	l := &fakeLab{t: t, dir: t.TempDir(), now: time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC), table: table, memo: sim.NewMemo()}
	l.expand(sc, nodes)
	return l
}

// expand lays out nodes 1..total that do not exist yet.
func (l *fakeLab) expand(sc *scenario.Scenario, total int) {
	l.t.Helper()
	for i := len(l.names) + 1; i <= total; i++ {
		m, err := sc.Node(i, total)
		if err != nil {
			l.t.Fatal(err)
		}
		dir := filepath.Join(l.dir, "nodes", m.Name)
		if err := os.MkdirAll(filepath.Join(dir, "root", "var", "adm", "ras"), 0o755); err != nil {
			l.t.Fatal(err)
		}
		if err := m.Save(dir); err != nil {
			l.t.Fatal(err)
		}
		l.names = append(l.names, m.Name)
	}
}

// run runs "tool args..." on node as SSH command cmdID would.
func (l *fakeLab) run(node, cmdline string) result {
	l.t.Helper()
	f := strings.Fields(cmdline)
	var args []string
	// keep a quoted value together: mmchconfig verbsPorts="a b"
	for i := 1; i < len(f); i++ {
		a := f[i]
		if strings.Count(a, `"`) == 1 {
			for i+1 < len(f) && !strings.Contains(a[strings.Index(a, `"`)+1:], `"`) {
				i++
				a += " " + f[i]
			}
			a = strings.ReplaceAll(a, `"`, "")
		}
		args = append(args, a)
	}
	var out, errb bytes.Buffer
	e := &sim.Env{Dir: l.dir, Node: node, CmdID: "c1", Args: args, Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb,
		Getenv: func(string) string { return "" }, Now: func() time.Time { return l.now },
		Sleep: func(ctx context.Context, d time.Duration) error { l.now = l.now.Add(d); return ctx.Err() }}
	if l.runs++; l.runs%2 == 0 {
		e.Memo = l.memo
	}
	st := l.table.Run(context.Background(), f[0], e)
	if e.Memo != nil {
		l.checkMemo(e)
	}
	_, writes, err := sim.ReadMarks(l.dir, node, "c1")
	if err != nil {
		l.t.Fatal(err)
	}
	return result{out.String(), errb.String(), st, writes}
}

// must runs cmdline and fails the test on a non-zero status.
func (l *fakeLab) must(node, cmdline string) result {
	l.t.Helper()
	r := l.run(node, cmdline)
	if r.status != 0 {
		l.t.Fatalf("%s on %s: status %d\nstdout:\n%s\nstderr:\n%s", cmdline, node, r.status, r.out, r.err)
	}
	return r
}

func (l *fakeLab) log(node string) string {
	l.t.Helper()
	b, err := os.ReadFile(filepath.Join(l.dir, "nodes", node, "root", LogPath))
	if err != nil {
		l.t.Fatal(err)
	}
	return string(b)
}

// verbsPeers returns the hostnames in node's "mmfsadm test verbs conn",
// one per row, read by column position of the documented format.
func (l *fakeLab) verbsPeers(node string) []string {
	l.t.Helper()
	r := l.must(node, "mmfsadm test verbs conn")
	var out []string
	for _, line := range strings.Split(strings.TrimSpace(r.out), "\n")[2:] {
		out = append(out, strings.Fields(line)[1])
	}
	return out
}

// checkMemo fails the test when the cluster state the memo keeps differs
// from the state file after a command that used the memo: a command that
// changed the memo's copy in place, or a write the memo missed.
func (l *fakeLab) checkMemo(e *sim.Env) {
	l.t.Helper()
	path := e.ClusterState(StateName)
	v, ok := l.memo.Cached(path)
	if !ok {
		return
	}
	var file Cluster
	if _, err := e.Read(path, &file); err != nil {
		l.t.Fatal(err)
	}
	a, _ := json.Marshal(v.(*Cluster))
	b, _ := json.Marshal(&file)
	if string(a) != string(b) {
		l.t.Fatalf("memo and %s differ after %v:\nmemo %s\nfile %s", path, e.Args, a, b)
	}
}
