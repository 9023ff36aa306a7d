package ui

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/provadev/prova/engine/event"
	"github.com/provadev/prova/internal/redact"
	"github.com/provadev/prova/internal/testkit/golden"
)

func render(t *testing.T, opts Options, events []event.Event) string {
	t.Helper()
	var b bytes.Buffer
	c := NewConsole(&b, opts)
	for _, e := range events {
		c.Observe(e)
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func TestConsoleGolden(t *testing.T) {
	tests := []struct {
		name   string
		opts   Options
		events func(testing.TB) []event.Event
	}{
		{"apply.never", Options{Color: "never"}, applyEvents},
		{"apply.always", Options{Color: "always"}, applyEvents},
		{"apply.verbose", Options{Color: "never", Verbose: true}, applyEvents},
		{"apply.terminal", Options{Color: "auto", IsTerminal: true, Env: []string{"NO_COLOR=1"}, Width: 60}, applyEvents},
		{"plan.never", Options{Color: "never"}, func(testing.TB) []event.Event { return planEvents() }},
		{"plan.always", Options{Color: "always"}, func(testing.TB) []event.Event { return planEvents() }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.opts.Redact = redact.New(secret)
			tt.opts.Sources = sources()
			got := render(t, tt.opts, tt.events(t))
			if strings.Contains(got, secret) {
				t.Errorf("secret written to the console")
			}
			golden.Check(t, filepath.Join("testdata", tt.name+".golden"), []byte(got))
		})
	}
}

func TestColorDecision(t *testing.T) {
	tests := []struct {
		mode string
		env  []string
		tty  bool
		want bool
	}{
		{"never", nil, true, false},
		{"always", []string{"NO_COLOR=1"}, false, true},
		{"auto", nil, true, true},
		{"", nil, true, true},
		{"auto", nil, false, false},
		{"auto", []string{"NO_COLOR=1"}, true, false},
		{"auto", []string{"NO_COLOR="}, true, true},
		{"auto", []string{"NO_COLOR=1", "NO_COLOR="}, true, true},
		{"auto", []string{"TERM=dumb"}, true, false},
		{"auto", []string{"TERM=xterm-256color"}, true, true},
	}
	for _, tt := range tests {
		got, err := UseColor(tt.mode, tt.env, tt.tty)
		if err != nil || got != tt.want {
			t.Errorf("UseColor(%q, %q, %v) = %v, %v; want %v", tt.mode, tt.env, tt.tty, got, err, tt.want)
		}
		// The console follows the same decision.
		out := render(t, Options{Color: tt.mode, Env: tt.env, IsTerminal: tt.tty}, planEvents())
		if has := strings.Contains(out, "\x1b["); has != tt.want {
			t.Errorf("console with %q, %q, tty=%v: escape sequences %v, want %v", tt.mode, tt.env, tt.tty, has, tt.want)
		}
	}
	if _, err := UseColor("sometimes", nil, true); err == nil {
		t.Error("UseColor accepted an invalid mode")
	}
}

func TestHostColourStable(t *testing.T) {
	a, b := newStyles(true), newStyles(true)
	for _, h := range hosts {
		if a.host(h).Sprint(h) != b.host(h).Sprint(h) {
			t.Errorf("host %s gets different colours", h)
		}
	}
	seen := map[string]bool{}
	for _, h := range []string{"gpfs01", "gpfs02", "gpfs03", "gpfs04", "gpfs05", "gpfs06"} {
		seen[a.host(h).Sprint("x")] = true
	}
	if len(seen) < 2 {
		t.Error("six hosts share one colour")
	}
}

func TestProgressNotTerminal(t *testing.T) {
	var evs []event.Event
	for s := 0.0; s <= 35; s += 0.5 {
		evs = append(evs, event.Progress{Step: "restart.gpfs", Host: "h1", Elapsed: s})
	}
	evs = append(evs, event.Progress{Step: "restart.gpfs", Host: "h2", Elapsed: 1})
	out := render(t, Options{Color: "never", Verbose: true}, evs) // -v: per host
	if n := strings.Count(out, "h1  "); n != 4 {                  // at 0, 10, 20 and 30 s
		t.Errorf("h1 progress printed %d times, want 4:\n%s", n, out)
	}
	if n := strings.Count(out, "h2  "); n != 1 {
		t.Errorf("h2 progress printed %d times, want 1", n)
	}
	if strings.Contains(out, "\x1b[") {
		t.Error("cursor movement written to a non-terminal")
	}
}

// TestProgressSummaryNotTerminal: without -v, a step's busy hosts are one
// line per message each time the longest of them passes 10, 20, 40, 80 s
// (doubling); heartbeats that differ only in the time left before the
// attempt times out are one line, which names the first timeout.
func TestProgressSummaryNotTerminal(t *testing.T) {
	var hs []string
	for i := 1; i <= 200; i++ {
		hs = append(hs, fmt.Sprintf("gpfs%03d", i))
	}
	evs := []event.Event{event.RunStarted{Mode: "apply", Hosts: hs, Steps: []string{"s"}}, event.StepStarted{Step: "s", Hosts: hs}}
	for s := 0.0; s <= 85; s += 5 {
		for i, h := range hs {
			// The engine's heartbeat: each host started at its own moment.
			msg := fmt.Sprintf("running, times out in %s", time.Duration(600-int(s)-i%7)*time.Second)
			if h == "gpfs004" {
				msg = "waiting for " + h
			}
			evs = append(evs, event.Progress{Step: "s", Host: h, Elapsed: s, Message: msg})
		}
	}
	for _, h := range hs {
		evs = append(evs, event.HostFinished{Step: "s", Host: h, Status: event.OK})
	}
	evs = append(evs, event.StepFinished{Step: "s"})
	out := render(t, Options{Color: "never"}, evs)
	for _, want := range []string{
		"gpfs[001-003,005-200]  199 running [longest 10.0s elapsed, first timeout in 9m49s]\n",
		"gpfs[001-003,005-200]  199 running [longest 1m20s elapsed, first timeout in 8m39s]\n",
		"gpfs004  waiting for gpfs004 [1m15s elapsed]\n",
		"gpfs[001-200]  200 ok\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in\n%s", want, out)
		}
	}
	// 4 moments (10, 20, 40, 80 s) of 2 lines each, the header and the result.
	if n := strings.Count(out, "\n"); n > 12 {
		t.Errorf("%d lines for 200 busy hosts over 85 s:\n%s", n, out)
	}
}

func TestProgressTerminalStatusBlock(t *testing.T) {
	var b bytes.Buffer
	// -v: each host's line as it finishes (the summary waits for the step).
	c := NewConsole(&b, Options{Color: "never", IsTerminal: true, Verbose: true})
	c.Observe(event.RunStarted{Mode: "apply", Hosts: []string{"h1", "h2"}})
	c.Observe(event.Progress{Step: "s", Host: "h1", Elapsed: 1})
	c.Observe(event.Progress{Step: "s", Host: "h2", Elapsed: 1})
	b.Reset()
	c.Observe(event.Progress{Step: "s", Host: "h1", Elapsed: 2})
	// Two status lines are on screen: go up two, erase, draw both again.
	want := "\r\x1b[2A\x1b[J" + "h1  in progress [2.0s elapsed]\n" + "h2  in progress [1.0s elapsed]\n"
	if got := b.String(); got != want {
		t.Errorf("redraw = %q, want %q", got, want)
	}
	b.Reset()
	c.Observe(event.HostFinished{Step: "s", Host: "h1", Status: event.OK})
	want = "\r\x1b[2A\x1b[J" + "h1  ok\n" + "h2  in progress [1.0s elapsed]\n"
	if got := b.String(); got != want {
		t.Errorf("after h1 finished = %q, want %q", got, want)
	}
	b.Reset()
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	if got, want := b.String(), "\r\x1b[1A\x1b[J"; got != want {
		t.Errorf("Close = %q, want %q", got, want)
	}
}

func TestTermDumbNoCursorMoves(t *testing.T) {
	out := render(t, Options{IsTerminal: true, Env: []string{"TERM=dumb"}}, []event.Event{
		event.Progress{Step: "s", Host: "h1", Elapsed: 1},
		event.Progress{Step: "s", Host: "h1", Elapsed: 2},
	})
	if strings.Contains(out, "\x1b") {
		t.Errorf("escape sequences with TERM=dumb: %q", out)
	}
}

func TestFailedHostShowsStderrTail(t *testing.T) {
	var evs []event.Event
	for i := range 15 {
		evs = append(evs, event.Output{Step: "s", Host: "h", Stream: "stderr", Line: "err " + string(rune('a'+i))})
	}
	evs = append(evs,
		event.Output{Step: "s", Host: "ok", Stream: "stderr", Line: "noise"},
		event.HostFinished{Step: "s", Host: "ok", Status: event.OK},
		event.HostFinished{Step: "s", Host: "h", Status: event.Failed, Message: "exit 1"},
		event.StepFinished{Step: "s"})
	out := render(t, Options{Color: "never"}, evs)
	if strings.Contains(out, "noise") {
		t.Error("output of a host that succeeded shown without --verbose")
	}
	if strings.Contains(out, "err e\n") || !strings.Contains(out, "h | err f\n") || !strings.Contains(out, "h | err o\n") {
		t.Errorf("want the last %d stderr lines of the failed host:\n%s", tailLines, out)
	}
}

func TestWriteErrorKept(t *testing.T) {
	c := NewConsole(failWriter{}, Options{})
	c.Observe(event.Warning{Message: "x"})
	if c.Err() == nil {
		t.Error("write error lost")
	}
}

type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errWrite }

var errWrite = &writeError{}

type writeError struct{}

func (*writeError) Error() string { return "disk full" }

func TestStatusBlockCapped(t *testing.T) {
	var b bytes.Buffer
	c := NewConsole(&b, Options{Color: "never", IsTerminal: true})
	for i := range 12 {
		c.Observe(event.Progress{Step: "s", Host: string(rune('a' + i)), Elapsed: 1})
	}
	b.Reset()
	c.Observe(event.Warning{Message: "w"})
	want := "\r\x1b[9A\x1b[J" + "Warning: w\n"
	for i := range maxStatus {
		want += string(rune('a'+i)) + "  in progress [1.0s elapsed]\n"
	}
	want += "  ... and 4 more in progress\n"
	if got := b.String(); got != want {
		t.Errorf("got %q\nwant %q", got, want)
	}
}

func TestPlanStepSkippedEverywhereIsOneLine(t *testing.T) {
	out := render(t, Options{Color: "never"}, []event.Event{
		event.RunStarted{Mode: "plan", Hosts: []string{"a", "b", "c"}, Steps: []string{"bench.tcp", "shell.x"}},
		event.PlannedHost{Step: "bench.tcp", Host: "a", Action: "skip", Symbol: "-", Summary: "when is false"},
		event.PlannedHost{Step: "bench.tcp", Host: "b", Action: "skip", Symbol: "-", Summary: "when is false"},
		event.PlannedHost{Step: "bench.tcp", Host: "c", Action: "skip", Symbol: "-", Summary: "when is false"},
		event.StepFinished{Step: "bench.tcp"},
		event.PlannedHost{Step: "shell.x", Host: "a", Action: "skip", Symbol: "-", Summary: "when is false"},
		event.PlannedHost{Step: "shell.x", Host: "b", Action: "change", Symbol: "~", Summary: "will run"},
		event.StepFinished{Step: "shell.x"},
	})
	if !strings.Contains(out, "- all 3 hosts: when is false") || strings.Count(out, "when is false") != 2 {
		t.Errorf("plan:\n%s", out)
	}
}

func TestApplySkippedHostsSummedUp(t *testing.T) {
	var evs []event.Event
	hosts := []string{"a", "b", "c", "d", "e"}
	evs = append(evs, event.RunStarted{Mode: "apply", Hosts: hosts, Steps: []string{"gds.check"}},
		event.StepStarted{Step: "gds.check", Hosts: hosts})
	for _, h := range hosts {
		evs = append(evs, event.HostFinished{Step: "gds.check", Host: h, Status: event.Skipped, Message: "when is false"})
	}
	evs = append(evs, event.StepFinished{Step: "gds.check"})
	out := render(t, Options{Color: "never"}, evs)
	if !strings.Contains(out, "all 5 hosts skipped: when is false") || strings.Count(out, "when is false") != 1 {
		t.Errorf("apply:\n%s", out)
	}
	out = render(t, Options{Color: "never", Verbose: true}, evs)
	if strings.Count(out, "skipped: when is false") != 5 {
		t.Errorf("-v lists every skipped host:\n%s", out)
	}
}

// A host whose until ran out, with failed_when keeping it from failing,
// says it gave up waiting, in its own colour, instead of "ok"; a failed one
// stays FAILED.
func TestGaveUpWaiting(t *testing.T) {
	evs := []event.Event{
		event.StepStarted{Step: "s", Hosts: []string{"h1", "h2", "h3"}},
		event.HostFinished{Step: "s", Host: "h1", Status: event.OK, GaveUp: true, Message: "gave up waiting: until still false after 4 attempts"},
		event.HostFinished{Step: "s", Host: "h2", Status: event.Failed, GaveUp: true, Message: "gave up waiting: until still false after 4 attempts"},
		event.HostFinished{Step: "s", Host: "h3", Status: event.OK, Message: "fine"},
		event.StepFinished{Step: "s"},
	}
	out := render(t, Options{Color: "never"}, evs)
	if !strings.Contains(out, "h1  gave up waiting: until still false after 4 attempts") {
		t.Errorf("h1 does not say it gave up waiting:\n%s", out)
	}
	if strings.Contains(out, "ok: until still false") || strings.Contains(out, "ok: gave up") {
		t.Errorf("a host that gave up waiting reads as ok:\n%s", out)
	}
	if !strings.Contains(out, "h2  FAILED: gave up waiting: until still false after 4 attempts") {
		t.Errorf("h2 must stay FAILED:\n%s", out)
	}
	if !strings.Contains(out, "h3  ok: fine") {
		t.Errorf("h3:\n%s", out)
	}
	colored := render(t, Options{Color: "always"}, []event.Event{evs[0], evs[1], evs[4]})
	want := newStyles(true).gaveUp.Sprint("gave up waiting")
	if !strings.Contains(colored, want) || want == "gave up waiting" {
		t.Errorf("gave up waiting is not in its own colour %q:\n%q", want, colored)
	}
	if ok := newStyles(true).ok.Sprint("gave up waiting"); ok == want {
		t.Errorf("gave up waiting has the colour of ok")
	}
}

// Hosts that gave up waiting print one line that says how they were
// retried, not an "attempts 1-2 failed" line that repeats it; retries of
// hosts that then succeeded keep their line.
func TestGaveUpAbsorbsRetries(t *testing.T) {
	hs := []string{"gpfs01", "gpfs02", "gpfs03", "gpfs04", "gpfs05"}
	evs := []event.Event{event.RunStarted{Mode: "apply", Hosts: hs, Steps: []string{"verbs_conn.conn"}},
		event.StepStarted{Step: "verbs_conn.conn", Hosts: hs}}
	reason := func(h string) string {
		if h == "gpfs04" {
			return "gpfs04 has no RDMA connection to gpfs01, gpfs02, gpfs03, gpfs05 (TCP fallback)"
		}
		return h + " has no RDMA connection to gpfs04 (TCP fallback)"
	}
	for a := 1; a <= 2; a++ {
		for _, h := range hs {
			evs = append(evs, event.Retry{Step: "verbs_conn.conn", Host: h, Attempt: a, Delay: 10 * time.Second, Reason: reason(h)})
		}
	}
	evs = append(evs, event.Retry{Step: "verbs_conn.conn", Host: "gpfs05", Attempt: 3, Delay: 10 * time.Second, Reason: "gpfs05 is still connecting"})
	for _, h := range hs {
		hf := event.HostFinished{Step: "verbs_conn.conn", Host: h, Status: event.OK, GaveUp: true,
			Message: "gave up waiting: until still false after 3 attempts: " + reason(h)}
		if h == "gpfs05" {
			hf = event.HostFinished{Step: "verbs_conn.conn", Host: h, Status: event.OK, Message: "gpfs05: RDMA to all 4 expected peers"}
		}
		evs = append(evs, hf)
	}
	evs = append(evs, event.StepFinished{Step: "verbs_conn.conn"})
	out := render(t, Options{Color: "never"}, evs)
	want := `== step verbs_conn.conn (5 hosts)
gpfs05  attempts 1-2 failed: gpfs05 has no RDMA connection to gpfs04 (TCP fallback); retried every 10.0s
gpfs05  attempt 3 failed: gpfs05 is still connecting; retried every 10.0s
gpfs[01-03]  3 gave up waiting: until still false after 3 attempts: <host> has no RDMA connection to gpfs04 (TCP fallback); retried every 10.0s
gpfs04  gave up waiting: until still false after 3 attempts: gpfs04 has no RDMA connection to all 4 other hosts (TCP fallback); retried every 10.0s
gpfs05  ok: gpfs05: RDMA to all 4 expected peers
`
	if !strings.Contains(out, want) {
		t.Errorf("got\n%s\nwant\n%s", out, want)
	}
}

// Off a terminal a host's start shows nothing (Observe returns before
// taking the console's mutex for it); on a terminal it is the host's
// status line from the start.
func TestHostStartedOnlyOnATerminal(t *testing.T) {
	var with, without []event.Event
	add := func(e event.Event, started bool) {
		with = append(with, e)
		if !started {
			without = append(without, e)
		}
	}
	add(event.RunStarted{Mode: "apply", Hosts: []string{"h1", "h2"}, Steps: []string{"s"}}, false)
	add(event.StepStarted{Step: "s", Hosts: []string{"h1", "h2"}}, false)
	add(event.HostStarted{Step: "s", Host: "h1"}, true)
	add(&event.HostStarted{Step: "s", Host: "h2"}, true)
	add(event.Progress{Step: "s", Host: "h1", Elapsed: 12}, false)
	add(event.HostFinished{Step: "s", Host: "h1", Status: event.OK}, false)
	add(event.HostFinished{Step: "s", Host: "h2", Status: event.Failed, Message: "exit 1"}, false)
	add(event.StepFinished{Step: "s"}, false)
	add(event.RunFinished{}, false)
	for _, verbose := range []bool{false, true} {
		opts := Options{Color: "never", Verbose: verbose}
		if got, want := render(t, opts, with), render(t, opts, without); got != want {
			t.Errorf("verbose=%v: not a terminal, with HostStarted:\n%s\nwithout:\n%s", verbose, got, want)
		}
	}
	var b bytes.Buffer
	c := NewConsole(&b, Options{Color: "never", IsTerminal: true, Env: []string{"TERM=xterm"}})
	c.Observe(event.RunStarted{Mode: "apply", Hosts: []string{"h1"}, Steps: []string{"s"}})
	c.Observe(event.StepStarted{Step: "s", Hosts: []string{"h1"}})
	b.Reset()
	c.Observe(&event.HostStarted{Step: "s", Host: "h1"})
	if got := b.String(); !strings.Contains(got, "h1  running s") {
		t.Errorf("terminal, HostStarted: %q, want the host's status line", got)
	}
}
