package record

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
	"github.com/provadev/prova/engine/event"
	"github.com/provadev/prova/internal/redact"
	"github.com/provadev/prova/internal/testkit/golden"
)

const secret = "hunter2-s3cr3t"

var t0 = time.Date(2026, 11, 30, 2, 15, 0, 0, time.UTC)

func testMeta() Meta {
	return Meta{
		RunID: "20261130T021500Z-a1b2c3", Mode: "apply",
		Runbook: "runbooks/gpfs-verbs-rdma.hcl", RunbookHash: "sha256:1f2e",
		Inventory: "prod.hcl", InventoryHash: "sha256:9a8b", ProvaVersion: "v0.1.0",
		Started: t0, Hosts: []string{"gpfs01", "gpfs02"}, PID: 4242,
		Vars: map[string]any{"pagepool": "16G", "token": secret, "ports": []any{"mlx5_0/1", secret}},
	}
}

// create opens a record with a fixed clock.
func create(t testing.TB, root string, meta Meta) *Writer {
	t.Helper()
	w, err := Create(root, meta, redact.New(secret))
	if err != nil {
		t.Fatal(err)
	}
	w.now = func() time.Time { return t0.Add(90 * time.Second) }
	return w
}

func applyEvents() []event.Event {
	steps := []string{"mmchconfig.verbs", "verbs_conn.check", "assert.verbs_up"}
	return []event.Event{
		event.RunStarted{RunID: "20261130T021500Z-a1b2c3", Mode: "apply", Hosts: []string{"gpfs01", "gpfs02"}, Steps: steps, Time: t0},
		event.Warning{Message: "password " + secret + " given on the command line"},
		// Steps may be seen out of order; the record keeps run order.
		event.StepStarted{Step: "mmchconfig.verbs", Module: "mmchconfig", Name: "verbs", Hosts: []string{"gpfs01", "gpfs02"}},
		event.HostStarted{Step: "mmchconfig.verbs", Host: "gpfs02"},
		&event.HostFinished{Step: "mmchconfig.verbs", Host: "gpfs02", Status: event.Changed, Duration: 1500 * time.Millisecond,
			Result: map[string]any{"changed": true, "rc": 0.0, "stdout": "mmchconfig: Command successfully completed\n", "stderr": ""}},
		event.HostFinished{Step: "mmchconfig.verbs", Host: "gpfs01", Status: event.Failed, Message: "exit 1: login " + secret,
			Result: map[string]any{"failed": true, "rc": 1.0, "stdout": "", "stderr": "login " + secret + " refused\n"}},
		event.HostDropped{Step: "mmchconfig.verbs", Host: "gpfs01", Reason: "step failed"},
		event.StepFinished{Step: "mmchconfig.verbs", Duration: 1500 * time.Millisecond},
		event.StepStarted{Step: "verbs_conn.check", Module: "verbs_conn", Name: "check", Hosts: []string{"gpfs02"}},
		event.Output{Step: "verbs_conn.check", Host: "gpfs02", Stream: "stdout", Line: "conn 0 RTS"},
		event.HostFinished{Step: "verbs_conn.check", Host: "gpfs02", Status: event.OK, Duration: 200 * time.Millisecond,
			Result: map[string]any{"peers": []any{"gpfs01", "gpfs03"}, "missing": []any{}, "note": "key " + secret},
			Evidence: map[string]string{
				"mmfsadm test verbs conn": "conn 0 RTS gpfs01\nconn 1 RTS gpfs03\n",
				"../../escape " + secret:  "token " + secret,
				"mmfsadm/test verbs conn": "same name once cleaned",
			}},
		event.StepFinished{Step: "verbs_conn.check", Duration: 200 * time.Millisecond},
		event.StepStarted{Step: "assert.verbs_up", Module: "assert", Name: "verbs_up", Hosts: []string{"gpfs02"}},
		event.HostFinished{Step: "assert.verbs_up", Host: "gpfs02", Status: event.Failed, Severity: "fail", Message: "only 2 verbs connections",
			Checks: []event.Check{{Name: "connections", Measured: "2", Threshold: ">= 3", Verdict: "fail", Message: "only 2 verbs connections"}},
			Diagnostics: hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Assertion failed", Detail: "only 2 (" + secret + ")",
				Subject: &hcl.Range{Filename: "runbooks/gpfs-verbs-rdma.hcl", Start: hcl.Pos{Line: 6, Column: 19, Byte: 88}, End: hcl.Pos{Line: 6, Column: 40, Byte: 109}}}}},
		event.StepFinished{Step: "assert.verbs_up"},
		event.RunFinished{RunID: "20261130T021500Z-a1b2c3", Mode: "apply", Failed: true, Duration: 80 * time.Second, Time: t0.Add(80 * time.Second),
			Hosts: map[string]event.Tally{"gpfs01": {Failed: 1}, "gpfs02": {OK: 1, Changed: 1, Failed: 1}}},
	}
}

func TestRoundTrip(t *testing.T) {
	root := filepath.Join(t.TempDir(), ".prova", "runs")
	w := create(t, root, testMeta())
	events := applyEvents()
	for _, e := range events {
		w.Observe(e)
	}
	if err := w.Close(""); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(root, "20261130T021500Z-a1b2c3")
	if w.Dir() != dir {
		t.Errorf("Dir = %s, want %s", w.Dir(), dir)
	}
	b, err := os.ReadFile(filepath.Join(dir, "run.json"))
	if err != nil {
		t.Fatal(err)
	}
	// run.json is one line (no indentation); the golden is indented to be
	// read.
	if n := bytes.Count(b, []byte("\n")); n != 1 {
		t.Errorf("run.json has %d lines, want 1 (compact JSON)", n)
	}
	var ind bytes.Buffer
	if err := json.Indent(&ind, b, "", "  "); err != nil {
		t.Fatal(err)
	}
	golden.Check(t, filepath.Join("testdata", "run.json.golden"), ind.Bytes())
	if _, err := os.Stat(filepath.Join(dir, "events.jsonl")); err == nil {
		t.Error("events.jsonl left plain beside events.jsonl.gz after Close")
	}

	rec, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if rec.Status != StatusFailed || rec.Meta.RunID != "20261130T021500Z-a1b2c3" || rec.Dir != dir {
		t.Errorf("status %q, run ID %q, dir %q", rec.Status, rec.Meta.RunID, rec.Dir)
	}
	if got := stepNames(rec); !cmp.Equal(got, []string{"mmchconfig.verbs", "verbs_conn.check", "assert.verbs_up"}) {
		t.Errorf("steps = %v", got)
	}
	if d := cmp.Diff(map[string]event.Tally{"gpfs01": {Failed: 1}, "gpfs02": {OK: 1, Changed: 1, Failed: 1}}, rec.Tallies); d != "" {
		t.Errorf("tallies (-want +got):\n%s", d)
	}
	want := []Assertion{{Step: "assert.verbs_up", Host: "gpfs02", Name: "connections", Measured: "2", Threshold: ">= 3",
		Verdict: "fail", Message: "only 2 verbs connections", Severity: "fail"}}
	if d := cmp.Diff(want, rec.Assertions); d != "" {
		t.Errorf("assertions (-want +got):\n%s", d)
	}
	if rec.Aborted != nil {
		t.Errorf("a run that finished has Aborted = %+v", rec.Aborted)
	}

	// stdout and stderr moved to raw files, referenced by relative path.
	h := rec.Steps[0].Hosts["gpfs02"]
	if _, ok := h.Result["stdout"]; ok {
		t.Error("stdout left in the result")
	}
	out, err := rec.ReadRaw(h.Raw["stdout"])
	if err != nil || string(out) != "mmchconfig: Command successfully completed\n" {
		t.Errorf("raw stdout = %q, %v (path %q)", out, err, h.Raw["stdout"])
	}
	if _, ok := h.Raw["stderr"]; ok {
		t.Error("empty stderr got a file")
	}
	ev := rec.Steps[1].Hosts["gpfs02"].Raw
	for name, p := range ev {
		if !strings.HasPrefix(p, "raw/sha256/") || !strings.HasSuffix(p, ".zst") || strings.Contains(p, "..") || strings.Contains(p, secret) {
			t.Errorf("evidence %q stored at %q", name, p)
		}
	}
	if got, err := rec.ReadRaw(ev["mmfsadm test verbs conn"]); err != nil || string(got) != "conn 0 RTS gpfs01\nconn 1 RTS gpfs03\n" {
		t.Errorf("evidence = %q, %v", got, err)
	}
	if got, err := rec.ReadRaw(ev["mmfsadm/test verbs conn"]); err != nil || string(got) != "same name once cleaned" {
		t.Errorf("second evidence = %q, %v", got, err)
	}
	if _, err := rec.ReadRaw("../../etc/passwd"); err == nil {
		t.Error("ReadRaw followed a path out of the record")
	}

	// events.jsonl holds one line per event, as the JSON observer writes;
	// once the record is closed it is kept as events.jsonl.gz.
	f := gunzipFile(t, filepath.Join(dir, "events.jsonl.gz"))
	// events.jsonl: the meta first, then one line per event but output
	// and progress, host_finished as the record keeps it.
	var kinds []string
	for _, e := range events {
		if k := e.Kind(); k != "output" && k != "progress" {
			kinds = append(kinds, k)
		}
	}
	kinds = append([]string{"record_meta"}, kinds...)
	sc := bufio.NewScanner(f)
	n := 0
	for ; sc.Scan(); n++ {
		var m map[string]any
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatalf("events.jsonl line %d: %v", n+1, err)
		}
		if n < len(kinds) && m["type"] != kinds[n] {
			t.Errorf("line %d type %v, want %s", n+1, m["type"], kinds[n])
		}
		if m["type"] == "host_finished" && m["evidence"] != nil {
			t.Errorf("line %d carries the evidence itself: %s", n+1, sc.Bytes())
		}
	}
	if n != len(kinds) {
		t.Errorf("%d event lines, want %d", n, len(kinds))
	}
	noSecretAnywhere(t, root)
	noTempFiles(t, dir)
}

func stepNames(rec *Record) []string {
	var s []string
	for _, st := range rec.Steps {
		s = append(s, st.Step)
	}
	return s
}

// noSecretAnywhere greps every file written under root for the secret.
func noSecretAnywhere(t *testing.T, root string) {
	t.Helper()
	files := 0
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		files++
		if strings.Contains(p, secret) {
			t.Errorf("secret in file name %s", p)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		switch {
		case strings.HasSuffix(p, ".gz"): // the closed trail
			if b, err = io.ReadAll(gunzipFile(t, p)); err != nil {
				return err
			}
		case strings.HasSuffix(p, ".zst"): // raw blobs, read as ReadRaw does
			recDir := filepath.Dir(filepath.Dir(filepath.Dir(p)))
			if b, err = (&Record{Dir: recDir}).ReadRaw("raw/sha256/" + filepath.Base(p)); err != nil {
				return err
			}
		}
		if bytes.Contains(b, []byte(secret)) {
			t.Errorf("secret in %s", p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 3 {
		t.Errorf("only %d files written", files)
	}
}

func noTempFiles(t *testing.T, dir string) {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), ".") {
			t.Errorf("temporary file left: %s", e.Name())
		}
	}
}

func TestRunningRecordReadable(t *testing.T) {
	root := t.TempDir()
	w := create(t, root, testMeta())
	defer w.Close("")
	rec, err := Load(filepath.Join(w.Dir(), "run.json"))
	if err != nil {
		t.Fatal(err)
	}
	if rec.Status != StatusIncomplete || !rec.Incomplete || rec.Meta.Vars["token"] != redact.Placeholder {
		t.Errorf("status %q, token %v", rec.Status, rec.Meta.Vars["token"])
	}
}

// TestInterrupted is the Ctrl-C path: the run stops mid-step and the CLI
// closes the record.
func TestInterrupted(t *testing.T) {
	root := t.TempDir()
	w := create(t, root, testMeta())
	for _, e := range []event.Event{
		event.RunStarted{Mode: "apply", Hosts: []string{"gpfs01", "gpfs02"}, Steps: []string{"mmchconfig.verbs", "restart.gpfs"}},
		event.StepStarted{Step: "mmchconfig.verbs", Hosts: []string{"gpfs01", "gpfs02"}},
		event.HostFinished{Step: "mmchconfig.verbs", Host: "gpfs01", Status: event.Changed},
		event.HostFinished{Step: "mmchconfig.verbs", Host: "gpfs02", Status: event.Changed},
		event.StepFinished{Step: "mmchconfig.verbs"},
		event.StepStarted{Step: "restart.gpfs", Hosts: []string{"gpfs01", "gpfs02"}},
		event.HostStarted{Step: "restart.gpfs", Host: "gpfs01"},
		event.HostStarted{Step: "restart.gpfs", Host: "gpfs02"},
		event.HostFinished{Step: "restart.gpfs", Host: "gpfs01", Status: event.Changed},
	} {
		w.Observe(e)
	}
	if err := w.Close(StatusInterrupted); err != nil {
		t.Fatal(err)
	}
	// Late events from hosts still winding down, and a second Close, change nothing.
	w.Observe(event.HostFinished{Step: "restart.gpfs", Host: "gpfs02", Status: event.Failed})
	if err := w.Close(StatusOK); err != nil {
		t.Fatal(err)
	}
	rec, err := Load(w.Dir())
	if err != nil {
		t.Fatal(err)
	}
	if rec.Status != StatusInterrupted {
		t.Errorf("status = %q", rec.Status)
	}
	if d := cmp.Diff(&Abort{Reason: "interrupted", HalfDone: []string{"restart.gpfs"}}, rec.Aborted); d != "" {
		t.Errorf("aborted (-want +got):\n%s", d)
	}
	if got := rec.Steps[1].Hosts["gpfs02"].Status; got != Unfinished {
		t.Errorf("gpfs02 status = %q, want unfinished", got)
	}
	if d := cmp.Diff(map[string]event.Tally{"gpfs01": {Changed: 2}, "gpfs02": {Changed: 1}}, rec.Tallies); d != "" {
		t.Errorf("counted tallies (-want +got):\n%s", d)
	}
	if rec.Finished.IsZero() || rec.DurationS != 90 {
		t.Errorf("finished %v after %vs", rec.Finished, rec.DurationS)
	}
}

func TestAbortedMergesHalfDone(t *testing.T) {
	w := create(t, t.TempDir(), testMeta())
	for _, e := range []event.Event{
		event.RunStarted{Mode: "apply", Steps: []string{"a.x", "b.y"}},
		event.StepStarted{Step: "b.y"},
		event.HostStarted{Step: "b.y", Host: "gpfs01"},
		event.StepStarted{Step: "a.x"},
		event.Aborted{Reason: "max_fail_percentage exceeded", HalfDone: []string{"a.x"}},
	} {
		w.Observe(e)
	}
	if err := w.Close(""); err != nil {
		t.Fatal(err)
	}
	rec, err := Load(w.Dir())
	if err != nil {
		t.Fatal(err)
	}
	if rec.Status != StatusAborted {
		t.Errorf("status = %q", rec.Status)
	}
	if d := cmp.Diff(&Abort{Reason: "max_fail_percentage exceeded", HalfDone: []string{"a.x", "b.y"}}, rec.Aborted); d != "" {
		t.Errorf("aborted (-want +got):\n%s", d)
	}
}

func TestPlanRecord(t *testing.T) {
	meta := testMeta()
	meta.Mode = "plan"
	w := create(t, t.TempDir(), meta)
	w.Observe(event.PlannedHost{Step: "mmchconfig.verbs", Host: "gpfs01", Action: "change", Summary: "verbsRdma: disable -> enable",
		Changes: []event.Change{{Name: "verbsRdma", From: "disable", To: secret}}})
	w.Observe(event.RunFinished{Mode: "plan", Changes: 1})
	if err := w.Close(""); err != nil {
		t.Fatal(err)
	}
	rec, err := Load(w.Dir())
	if err != nil {
		t.Fatal(err)
	}
	p := rec.Steps[0].Plans["gpfs01"]
	if p.Action != "change" || p.Changes[0].To != redact.Placeholder {
		t.Errorf("plan = %+v", p)
	}
	if rec.Status != StatusOK || rec.Aborted != nil {
		t.Errorf("status %q, aborted %+v", rec.Status, rec.Aborted)
	}
}

func TestConcurrentObserve(t *testing.T) {
	w := create(t, t.TempDir(), testMeta())
	var wg sync.WaitGroup
	const n = 20
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			h := "h" + string(rune('a'+i))
			w.Observe(event.HostStarted{Step: "s.x", Host: h})
			w.Observe(event.Output{Step: "s.x", Host: h, Stream: "stdout", Line: "x"})
			w.Observe(event.HostFinished{Step: "s.x", Host: h, Status: event.OK, Result: map[string]any{"stdout": "out " + h}})
		}()
	}
	wg.Wait()
	if err := w.Close(""); err != nil {
		t.Fatal(err)
	}
	rec, err := Load(w.Dir())
	if err != nil {
		t.Fatal(err)
	}
	if got := len(rec.Steps[0].Hosts); got != n {
		t.Errorf("%d hosts recorded, want %d", got, n)
	}
	b, err := io.ReadAll(gunzipFile(t, filepath.Join(w.Dir(), "events.jsonl.gz")))
	if err != nil {
		t.Fatal(err)
	}
	if got := bytes.Count(b, []byte("\n")); got != 1+2*n { // meta, then no output lines
		t.Errorf("%d event lines, want %d", got, 1+2*n)
	}
}

func TestCreateRefusesExistingAndBadID(t *testing.T) {
	root := t.TempDir()
	w := create(t, root, testMeta())
	defer w.Close("")
	if _, err := Create(root, testMeta(), nil); err == nil {
		t.Error("Create reused an existing record directory")
	}
	for _, id := range []string{"../x", "a/b", ".."} {
		m := testMeta()
		m.RunID = id
		if _, err := Create(root, m, nil); err == nil {
			t.Errorf("Create accepted run ID %q", id)
		}
	}
	m := testMeta()
	m.RunID = ""
	w2, err := Create(root, m, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer w2.Close("")
	if !IsRunID(w2.RunID()) || !strings.HasPrefix(w2.RunID(), "20261130T021500Z-") {
		t.Errorf("generated run ID %q", w2.RunID())
	}
}

func TestLoadErrors(t *testing.T) {
	dir := t.TempDir()
	if _, err := Load(dir); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Load of an empty dir: %v", err)
	}
	for _, content := range []string{"{", `{"version": 99}`, `{"version": 0}`} {
		if err := os.WriteFile(filepath.Join(dir, "run.json"), []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		if _, err := Load(dir); err == nil {
			t.Errorf("Load accepted %s", content)
		}
	}
}

func TestRunIDAndLatest(t *testing.T) {
	a, b := NewRunID(t0), NewRunID(t0.Add(time.Second))
	if !IsRunID(a) || !IsRunID(b) || a >= b {
		t.Errorf("run IDs %q, %q: want well-formed and sorted by time", a, b)
	}
	ids := map[string]bool{}
	for range 5 {
		ids[NewRunID(t0)] = true
	}
	if len(ids) < 2 {
		t.Error("run IDs of the same second do not differ")
	}
	if got := NewRunID(time.Date(2026, 11, 30, 3, 15, 0, 0, time.FixedZone("CET", 3600))); !strings.HasPrefix(got, "20261130T021500Z-") {
		t.Errorf("run ID not in UTC: %s", got)
	}

	root := t.TempDir()
	if _, err := Latest(root); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Latest of an empty root: %v", err)
	}
	for _, at := range []time.Time{t0.Add(time.Hour), t0, t0.Add(2 * time.Hour)} {
		m := testMeta()
		m.RunID, m.Started = NewRunID(at), at
		w := create(t, root, m)
		if err := w.Close(""); err != nil {
			t.Fatal(err)
		}
	}
	// Newer names that are not records are ignored.
	if err := os.Mkdir(filepath.Join(root, "zzz-notes"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(root, NewRunID(t0.Add(3*time.Hour))), 0o700); err != nil {
		t.Fatal(err)
	}
	got, err := Latest(root)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(filepath.Base(got), "20261130T041500Z-") {
		t.Errorf("Latest = %s", got)
	}
}

// gunzipFile opens a gzip file for reading, closed when the test ends.
func gunzipFile(t *testing.T, path string) io.Reader {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return zr
}
