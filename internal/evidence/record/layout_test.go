package record

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/provadev/prova/engine/event"
)

// TestRawStoredOncePerContent: 50 hosts printing the same mmlscluster
// output leave one blob; each host-step points at it.
func TestRawStoredOncePerContent(t *testing.T) {
	w := create(t, t.TempDir(), testMeta())
	same := strings.Repeat("GPFS cluster information\n  node gpfs01 quorum-manager\n", 100)
	for i := range 50 {
		h := "gpfs" + string(rune('A'+i))
		w.Observe(event.HostFinished{Step: "shell.lscluster", Host: h, Status: event.OK,
			Result: map[string]any{"stdout": same, "stderr": ""}, Evidence: map[string]string{"mmlscluster": same}})
	}
	w.Observe(event.HostFinished{Step: "shell.lscluster", Host: "odd", Status: event.OK, Result: map[string]any{"stdout": "different\n"}})
	if err := w.Close(""); err != nil {
		t.Fatal(err)
	}
	blobs, err := os.ReadDir(filepath.Join(w.Dir(), "raw", "sha256"))
	if err != nil {
		t.Fatal(err)
	}
	if len(blobs) != 2 {
		t.Errorf("%d blobs for 2 distinct outputs", len(blobs))
	}
	rec, err := Load(w.Dir())
	if err != nil {
		t.Fatal(err)
	}
	a, b := rec.Steps[0].Hosts["gpfsA"].Raw, rec.Steps[0].Hosts["gpfsZ"].Raw
	if a["stdout"] != b["stdout"] || a["stdout"] != a["mmlscluster"] {
		t.Errorf("same content, different blobs: %v %v", a, b)
	}
	got, err := rec.ReadRaw(b["stdout"])
	if err != nil || string(got) != same {
		t.Errorf("ReadRaw = %d bytes, %v", len(got), err)
	}
	// Compressed: the blob is far smaller than its content.
	fi, err := os.Stat(filepath.Join(w.Dir(), filepath.FromSlash(a["stdout"])))
	if err != nil || fi.Size() > int64(len(same))/5 {
		t.Errorf("blob size %v for %d bytes: %v", fi.Size(), len(same), err)
	}
}

// TestCapsEverythingRecorded: a 40 MiB stdout, a 5 MiB evidence text and
// a 5 MiB result string are cut to the caps, say so, and the record stays
// small.
func TestCapsEverythingRecorded(t *testing.T) {
	w := create(t, t.TempDir(), testMeta())
	big := strings.Repeat("y\n", 20<<20)
	w.Observe(event.HostFinished{Step: "shell.flood", Host: "gpfs01", Status: event.OK, Message: strings.Repeat("m", 1<<20),
		Result:   map[string]any{"stdout": big, "listing": strings.Repeat("z", 5<<20), "nested": []any{strings.Repeat("n", 5<<20)}},
		Evidence: map[string]string{"dmesg": strings.Repeat("e", 5<<20)}})
	w.Observe(event.Warning{Message: strings.Repeat("w", 1<<20)})
	if err := w.Close(""); err != nil {
		t.Fatal(err)
	}
	size := dirSize(t, w.Dir())
	if size > 2<<20 {
		t.Errorf("record is %d bytes for 55 MiB of output", size)
	}
	rec, err := Load(w.Dir())
	if err != nil {
		t.Fatal(err)
	}
	hr := rec.Steps[0].Hosts["gpfs01"]
	if d := cmp.Diff([]string{"stdout", "dmesg"}, hr.Truncated); d != "" {
		t.Errorf("truncated (-want +got):\n%s", d)
	}
	out, err := rec.ReadRaw(hr.Raw["stdout"])
	if err != nil || len(out) > MaxRawBytes+200 || !strings.Contains(string(out), "[prova: cut here: 41943040 bytes in all") {
		t.Errorf("stdout kept %d bytes, %v: ...%s", len(out), err, out[max(0, len(out)-120):])
	}
	if l := len(hr.Result["listing"].(string)); l > MaxValueBytes+200 {
		t.Errorf("result string kept %d bytes", l)
	}
	if l := len(hr.Result["nested"].([]any)[0].(string)); l > MaxValueBytes+200 {
		t.Errorf("nested result string kept %d bytes", l)
	}
	if len(hr.Message) > MaxValueBytes+200 || len(rec.Warnings[0].Message) > MaxValueBytes+200 {
		t.Errorf("message %d, warning %d bytes", len(hr.Message), len(rec.Warnings[0].Message))
	}
}

func dirSize(t *testing.T, dir string) int64 {
	t.Helper()
	var n int64
	err := filepath.Walk(dir, func(_ string, fi os.FileInfo, err error) error {
		if err == nil && !fi.IsDir() {
			n += fi.Size()
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// TestRebuildFromCompressedTrail: a closed record keeps its trail as
// events.jsonl.gz; a run.json that says "running" beside it (a copy from
// the middle of a run) is rebuilt from the compressed trail.
func TestRebuildFromCompressedTrail(t *testing.T) {
	root := t.TempDir()
	w := create(t, root, testMeta())
	for _, e := range applyEvents() {
		w.Observe(e)
	}
	first, err := os.ReadFile(filepath.Join(w.Dir(), runFile))
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Close(""); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(w.Dir(), runFile), first, 0o600); err != nil { // status running
		t.Fatal(err)
	}
	rec, err := Load(w.Dir())
	if err != nil {
		t.Fatal(err)
	}
	// The trail holds run_finished: the rebuilt record is whole.
	if rec.Status != StatusFailed || rec.Incomplete {
		t.Errorf("status %q, incomplete %v (%s)", rec.Status, rec.Incomplete, rec.IncompleteReason)
	}
	if got := stepNames(rec); !cmp.Equal(got, []string{"mmchconfig.verbs", "verbs_conn.check", "assert.verbs_up"}) {
		t.Errorf("steps = %v", got)
	}
	if hr := rec.Steps[1].Hosts["gpfs02"]; hr.Status != event.OK || hr.Result["note"] == nil {
		t.Errorf("rebuilt host result = %+v", hr)
	}
}

// TestCloseKeepsPlainTrailWhenCompressionFails: run.json and the trail's
// compressed copy are written at once at Close; when the copy cannot be
// made (here a directory stands where events.jsonl.gz would go), the
// plain trail stays, whole, beside a complete run.json, Close says why,
// and no temporary file is left.
func TestCloseKeepsPlainTrailWhenCompressionFails(t *testing.T) {
	root := t.TempDir()
	w := create(t, root, testMeta())
	for _, e := range applyEvents() {
		w.Observe(e)
	}
	if err := os.Mkdir(filepath.Join(w.Dir(), eventsGz), 0o700); err != nil {
		t.Fatal(err)
	}
	err := w.Close("")
	if err == nil || !strings.Contains(err.Error(), "compress "+eventsFile) {
		t.Fatalf("Close = %v, want the trail's compression named", err)
	}
	if again := w.Close(""); again == nil || again.Error() != err.Error() {
		t.Errorf("second Close = %v, want the first one's error", again)
	}
	b, rerr := os.ReadFile(filepath.Join(w.Dir(), eventsFile))
	if rerr != nil {
		t.Fatalf("plain trail: %v", rerr)
	}
	lines := bytes.Split(bytes.TrimSuffix(b, []byte("\n")), []byte("\n"))
	for i, want := range map[int]string{0: metaType, len(lines) - 1: "run_finished"} {
		var l struct{ Type string }
		if err := json.Unmarshal(lines[i], &l); err != nil || l.Type != want {
			t.Errorf("plain trail line %d: type %q (%v), want %q", i+1, l.Type, err, want)
		}
	}
	noTempFiles(t, w.Dir())
	rec, lerr := Load(w.Dir())
	if lerr != nil {
		t.Fatal(lerr)
	}
	// run.json is the closed one (not rebuilt): whole, not incomplete.
	if rec.Status != StatusFailed || rec.Incomplete {
		t.Errorf("status %q, incomplete %v (%s)", rec.Status, rec.Incomplete, rec.IncompleteReason)
	}
	if got := stepNames(rec); !cmp.Equal(got, []string{"mmchconfig.verbs", "verbs_conn.check", "assert.verbs_up"}) {
		t.Errorf("steps = %v", got)
	}
}

// TestRebuildAfterKill: a record never closed (the process was killed)
// loads as incomplete with everything events.jsonl holds, including a
// last line the kill cut in half.
func TestRebuildAfterKill(t *testing.T) {
	root := t.TempDir()
	w := create(t, root, testMeta())
	events := applyEvents()
	cutAt := 11 // after verbs_conn.check finished on gpfs02, before its StepFinished
	for _, e := range events[:cutAt] {
		w.Observe(e)
	}
	if err := w.events.Sync(); err != nil {
		t.Fatal(err)
	}
	// The kill: no Close; half a line at the end.
	if _, err := w.events.WriteString(`{"type":"host_finished","time":"2026-11-30T02:15:01Z","step":"assert.ve`); err != nil {
		t.Fatal(err)
	}
	rec, err := Load(w.Dir())
	if err != nil {
		t.Fatal(err)
	}
	if rec.Status != StatusIncomplete || !rec.Incomplete || !strings.Contains(rec.IncompleteReason, "pid 4242") {
		t.Errorf("status %q, incomplete %v, reason %q", rec.Status, rec.Incomplete, rec.IncompleteReason)
	}
	if got := stepNames(rec); !cmp.Equal(got, []string{"mmchconfig.verbs", "verbs_conn.check"}) {
		t.Errorf("steps = %v", got)
	}
	if rec.Aborted == nil || !cmp.Equal(rec.Aborted.HalfDone, []string{"verbs_conn.check"}) {
		t.Errorf("aborted = %+v", rec.Aborted)
	}
	hr := rec.Steps[1].Hosts["gpfs02"]
	if hr.Status != event.OK || hr.Result["note"] == nil {
		t.Errorf("rebuilt host result = %+v", hr)
	}
	if b, err := rec.ReadRaw(hr.Raw["mmfsadm test verbs conn"]); err != nil || !strings.Contains(string(b), "conn 1 RTS gpfs03") {
		t.Errorf("rebuilt raw = %q, %v", b, err)
	}
	if rec.Steps[0].Hosts["gpfs01"].Status != event.Failed || rec.Tallies["gpfs01"].Failed != 1 {
		t.Errorf("gpfs01 = %+v, tallies %+v", rec.Steps[0].Hosts["gpfs01"], rec.Tallies)
	}
	if len(rec.PlannedSteps) != 3 || rec.Meta.RunID != "20261130T021500Z-a1b2c3" {
		t.Errorf("planned %v, meta %+v", rec.PlannedSteps, rec.Meta)
	}
	noSecretAnywhere(t, root)

	// A bad line that is not the last one is an error naming it.
	if _, err := w.events.WriteString("\n{\"type\":\"warning\"}\n"); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(w.Dir()); err == nil || !strings.Contains(err.Error(), "events.jsonl line 12") {
		t.Errorf("a bad line: %v", err)
	}
	w.events.Close()
}

// The run's cap counts blobs as stored (compressed, each content once):
// outputs that compress well or repeat do not use it up, and past it an
// output is named but replaced by a note saying what was dropped.
func TestRunRawCapCountsStoredBytes(t *testing.T) {
	w := create(t, t.TempDir(), testMeta())
	w.runRawCap = 64 << 10
	finish := func(host, out string) HostResult {
		w.Observe(event.HostFinished{Step: "shell.s", Host: host, Status: event.OK, Evidence: map[string]string{"out": out}})
		return heldHost(t, w, "shell.s", host)
	}
	// 40 hosts print the same 200 KiB (compressible) table: one blob, far
	// below the cap although 8 MB before compression.
	table := strings.Repeat("conn 0 RTS gpfs01 mlx5_0 1 1\n", 7000)
	for i := range 40 {
		if hr := finish(fmt.Sprintf("h%02d", i), table); len(hr.Truncated) != 0 {
			t.Fatalf("h%02d: %v", i, hr.Truncated)
		}
	}
	// Random text does not compress: the cap is reached.
	rng := rand.New(rand.NewPCG(1, 2))
	var kept, dropped int
	for i := range 40 {
		b := make([]byte, 8<<10)
		for j := range b {
			b[j] = 'a' + byte(rng.IntN(26))
		}
		hr := finish(fmt.Sprintf("r%02d", i), string(b))
		raw, err := (&Record{Dir: w.Dir()}).ReadRaw(hr.Raw["out"])
		if err != nil {
			t.Fatal(err)
		}
		if len(hr.Truncated) == 0 {
			kept++
			continue
		}
		dropped++
		if !strings.Contains(string(raw), "not kept: the run's raw outputs reached the record cap") {
			t.Errorf("r%02d: %q", i, raw)
		}
	}
	if kept == 0 || dropped == 0 || w.rawBytes > w.runRawCap {
		t.Errorf("kept %d, dropped %d, %d bytes stored for a cap of %d", kept, dropped, w.rawBytes, w.runRawCap)
	}
	if err := w.Close(""); err != nil {
		t.Fatal(err)
	}
}

// heldHost is the HostResult the Writer holds for step and host, decoded
// from its encoding.
func heldHost(t testing.TB, w *Writer, step, host string) HostResult {
	t.Helper()
	h, ok := w.held[step][host]
	if !ok {
		t.Fatalf("no result held for %s on %s", step, host)
	}
	var hr HostResult
	if err := json.Unmarshal(h.js, &hr); err != nil {
		t.Fatalf("%s on %s: %v in %q", step, host, err, h.js)
	}
	return hr
}
