package record

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/provadev/prova/engine/event"
)

// groupEvents is a fan-out's events as one host's worker observes them:
// the run's and steps' own events (serial), and per host, each step's
// start and finish (hosts[i]'s in worker[i]).
func groupEvents(steps, hosts int) (head, tail []event.Event, worker [][]event.Event) {
	names, stepNames := fanoutNames(steps, hosts)
	head = []event.Event{event.RunStarted{RunID: testMeta().RunID, Mode: "apply", Hosts: names, Steps: stepNames, Time: t0}}
	for _, st := range stepNames {
		head = append(head, event.StepStarted{Step: st, Module: "shell", Hosts: names})
		tail = append(tail, event.StepFinished{Step: st, Duration: time.Second})
	}
	tail = append(tail, event.RunFinished{RunID: testMeta().RunID, Mode: "apply", Duration: time.Minute, Time: t0.Add(time.Minute)})
	worker = make([][]event.Event, hosts)
	for h, host := range names {
		for s, st := range stepNames {
			out := ""
			if s%3 == 0 {
				out = fmt.Sprintf("%s on %s: %s\n", st, host, strings.Repeat("x", 40*s))
			}
			worker[h] = append(worker[h], event.HostStarted{Step: st, Host: host},
				event.HostFinished{Step: st, Host: host, Status: event.Changed, Duration: time.Duration(s+h) * time.Millisecond,
					Result: map[string]any{"changed": true, "rc": 0.0, "stdout": out, "stderr": "", "host": host}})
		}
	}
	return head, tail, worker
}

// trailLines is a closed record's events.jsonl, one string per line.
func trailLines(t *testing.T, dir string) []string {
	t.Helper()
	b, err := io.ReadAll(gunzipFile(t, filepath.Join(dir, "events.jsonl.gz")))
	if err != nil {
		t.Fatal(err)
	}
	return strings.SplitAfter(string(b[:len(b)-1]), "\n")
}

// lineOf is e's line, or its start for a finish, in the trail with create's clock.
func lineOf(e event.Event) string {
	switch e := e.(type) {
	case event.HostStarted:
		return fmt.Sprintf(`{"type":"host_started","time":"2026-11-30T02:16:30Z","host":%q,"step":%q}`, e.Host, e.Step)
	case event.HostFinished:
		return fmt.Sprintf(`{"type":"host_finished","time":"2026-11-30T02:16:30Z","step":%q,"host":%q,`, e.Step, e.Host)
	}
	panic(fmt.Sprintf("lineOf %T", e))
}

// TestObserveConcurrent: many workers observing at once (the lines
// written in group commits) leave the trail a serial run leaves, up to
// the order of different workers' lines: every line once, each worker's
// in its own order, and the same run.json. Each Observe returns only once
// its line is in events.jsonl (what a kill -9 leaves).
func TestObserveConcurrent(t *testing.T) {
	const steps, hosts = 12, 48
	head, tail, worker := groupEvents(steps, hosts)

	serial := create(t, t.TempDir(), testMeta())
	for _, e := range head {
		serial.Observe(e)
	}
	for s := range steps {
		for h := range hosts {
			serial.Observe(worker[h][2*s])
			serial.Observe(worker[h][2*s+1])
		}
	}
	for _, e := range tail {
		serial.Observe(e)
	}
	if err := serial.Close(""); err != nil {
		t.Fatal(err)
	}

	w := create(t, t.TempDir(), testMeta())
	for _, e := range head {
		w.Observe(e)
	}
	trail := filepath.Join(w.Dir(), eventsFile)
	var wg sync.WaitGroup
	errs := make(chan error, hosts)
	for h := range hosts {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i, e := range worker[h] {
				w.Observe(e)
				if i%5 != 0 {
					continue
				}
				b, err := os.ReadFile(trail)
				if err != nil {
					errs <- err
					return
				}
				if !bytes.Contains(b, []byte(lineOf(e))) {
					errs <- fmt.Errorf("Observe(%s) returned before its line was written", lineOf(e))
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	for _, e := range tail {
		w.Observe(e)
	}
	if err := w.Close(""); err != nil {
		t.Fatal(err)
	}

	want, got := trailLines(t, serial.Dir()), trailLines(t, w.Dir())
	// The run's own lines are serial: the same place in both.
	n := len(head) + 1 // the meta line first
	if !slices.Equal(got[:n], want[:n]) || !slices.Equal(got[len(got)-len(tail):], want[len(want)-len(tail):]) {
		t.Errorf("the run's and steps' lines moved:\n got %q\nwant %q", got[:n], want[:n])
	}
	// Every line once: the same lines up to order.
	sortedWant, sortedGot := slices.Sorted(slices.Values(want)), slices.Sorted(slices.Values(got))
	if !slices.Equal(sortedGot, sortedWant) {
		t.Fatalf("concurrent trail: %d lines, not the serial run's %d up to order", len(got), len(want))
	}
	// Each worker's lines in its own order.
	for h := range worker {
		last := -1
		for _, e := range worker[h] {
			p := lineOf(e)
			i := slices.IndexFunc(got, func(l string) bool { return strings.HasPrefix(l, p) })
			if i <= last {
				t.Fatalf("worker %d: %s at line %d, after its line %d", h, p, i, last)
			}
			last = i
		}
	}
	rj := func(dir string) []byte {
		b, err := os.ReadFile(filepath.Join(dir, "run.json"))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	if !bytes.Equal(rj(w.Dir()), rj(serial.Dir())) {
		t.Error("run.json of the concurrent run differs from the serial run's")
	}
}

// TestObserveBatchError: a write error in a batch reaches every Observe
// whose line was in it: each returns with the record's error set, and
// OnFail is called once. The trail is a pipe held full, so the lines
// observed while the first write waits form the next batch.
func TestObserveBatchError(t *testing.T) {
	w := create(t, t.TempDir(), testMeta())
	var fails []error
	w.OnFail(func(err error) { fails = append(fails, err) })
	r, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer pw.Close()
	// Fill the pipe: the next write blocks until the reader closes.
	chunk := make([]byte, 4096)
	if err := pw.SetWriteDeadline(time.Now().Add(100 * time.Millisecond)); err != nil {
		t.Skip("no write deadline on a pipe:", err)
	}
	for {
		if _, err := pw.Write(chunk); err != nil {
			if !errors.Is(err, os.ErrDeadlineExceeded) {
				t.Fatal(err)
			}
			break
		}
	}
	if err := pw.SetWriteDeadline(time.Time{}); err != nil {
		t.Fatal(err)
	}
	file := w.events
	defer file.Close()
	w.mu.Lock()
	w.events = pw
	w.mu.Unlock()

	waitFor := func(what string, ok func() bool) {
		t.Helper()
		for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(time.Millisecond) {
			w.mu.Lock()
			done := ok()
			w.mu.Unlock()
			if done {
				return
			}
			if time.Now().After(deadline) {
				t.Fatal("timed out waiting for", what)
			}
		}
	}
	const waiters = 8
	seen := make(chan error, waiters+1)
	observe := func(host string) {
		w.Observe(event.HostStarted{Step: "s", Host: host})
		seen <- w.Err()
	}
	go observe("leader")
	waitFor("the first write", func() bool { return w.writing && w.appended == w.written+1 })
	for i := range waiters {
		go observe(fmt.Sprintf("h%d", i))
	}
	waitFor("the next batch", func() bool { return w.appended == w.written+1+waiters })
	w.mu.Lock()
	batch := w.pend
	w.mu.Unlock()
	if n := bytes.Count(batch, []byte("\n")); n != waiters {
		t.Fatalf("%d lines pending, want %d", n, waiters)
	}
	r.Close() // the leader's write fails (EPIPE), then the batch's
	for range waiters + 1 {
		if err := <-seen; err == nil || !strings.Contains(err.Error(), "write events.jsonl") {
			t.Errorf("Observe returned with the record's error %v, want the write's", err)
		}
	}
	if len(fails) != 1 {
		t.Errorf("OnFail called %d times, want once", len(fails))
	}
	// A later line fails as well and Close reports the first error.
	w.Observe(event.HostStarted{Step: "s", Host: "late"})
	w.mu.Lock()
	pending := w.written != w.appended || w.writing
	w.mu.Unlock()
	if pending {
		t.Error("a line left pending after its Observe returned")
	}
	if err := w.Close(""); err == nil || !strings.Contains(err.Error(), "broken pipe") {
		t.Errorf("Close: %v, want the write's error", err)
	}
}

// fanoutNames names a fan-out's hosts (h000...) and steps (shell.s00...).
func fanoutNames(steps, hosts int) (names, stepNames []string) {
	names = make([]string, hosts)
	for h := range names {
		names[h] = fmt.Sprintf("h%03d", h)
	}
	stepNames = make([]string, steps)
	for s := range stepNames {
		stepNames[s] = fmt.Sprintf("shell.s%02d", s)
	}
	return names, stepNames
}
