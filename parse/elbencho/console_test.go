package elbencho

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/provadev/prova/internal/testkit/samples"
	"github.com/provadev/prova/parse"
	"github.com/provadev/prova/parse/bench"
)

func wantErr(t *testing.T, err error, tool string, line int, reason string) {
	t.Helper()
	var pe *parse.Error
	if !errors.As(err, &pe) || pe.Tool != tool || (line > 0 && pe.Line != line) || !strings.Contains(pe.Reason, reason) {
		t.Fatalf("got %v, want %s error at line %d containing %q", err, tool, line, reason)
	}
}

// dropLast returns the sample without its last line (cut by the excerpt).
func dropLast(t *testing.T, rel string) []byte {
	t.Helper()
	s := strings.TrimRight(string(samples.Read(t, rel)), "\n")
	return []byte(s[:strings.LastIndex(s, "\n")+1])
}

// The v1 sample is a sweep script's output: two elbencho runs, each after
// the script's "Working on ..." line. Together they are refused (a second
// result table header); split at the script's lines, each run reads.
func TestConsoleV1(t *testing.T) {
	whole := samples.Read(t, "elbencho/console-v1-large-files-write-dropcache-nersc.txt")
	_, err := ParseConsole(whole)
	wantErr(t, err, "elbencho", 20, "a second result table header (the first is on line 3)")
	body := string(samples.Strip(whole))
	k := strings.LastIndex(body, "Working on ")
	var names []string
	var r *Result
	for _, run := range []string{body[:k], body[k:]} {
		one, err := ParseConsole([]byte(run))
		if err != nil {
			t.Fatal(err)
		}
		if r == nil {
			r = one
		}
		for _, p := range one.Phases {
			names = append(names, p.Name)
		}
	}
	if got := strings.Join(names, " "); got != "DROPCACHE WRITE DROPCACHE RMFILES DROPCACHE DROPCACHE WRITE DROPCACHE RMFILES" {
		t.Fatalf("phases %s", got)
	}
	w := r.Phases[1]
	if w.IOPS != 655 || w.MiBps != 10488 || w.ElapsedMs != 99973 || w.First.IOPS != 660 || w.First.MiBps != 10572 ||
		w.First.ElapsedMs != 85656 || w.First.TotalMiB != 905632 || w.Last.TotalMiB != 1048576 || !w.LatUs.Empty() {
		t.Errorf("WRITE = %+v", w)
	}
	if p := r.Phases[3]; p.Name != "RMFILES" || p.ElapsedMs != 60 || p.First.ElapsedMs != 41 {
		t.Errorf("first run's RMFILES = %+v", p)
	}
	b := w.Bench()
	if b.Tool != "elbencho" || b.Op != "write" || b.IOPS != 655 || b.MiBps != 10488 || b.Runtime != 99973*time.Millisecond {
		t.Errorf("Bench() = %+v", b)
	}
}

func TestConsoleV3Write(t *testing.T) {
	r, err := ParseConsole(samples.Read(t, "elbencho/console-v3-write-1thread-direct-issue75.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Phases) != 1 {
		t.Fatalf("%d phases", len(r.Phases))
	}
	p := r.Phases[0]
	if p.Name != "WRITE" || p.ElapsedMs != 11559 || p.IOPS != 221 || p.MiBps != 885 || p.Last.TotalMiB != 10240 || len(p.Rows) != 4 {
		t.Errorf("got %+v", p)
	}
}

func TestConsoleLatencyPartial(t *testing.T) {
	rel := "elbencho/console-v3-mkdirs-lat-latpercent-PARTIAL-issue79.txt"
	_, err := ParseConsole(samples.Read(t, rel))
	wantErr(t, err, "elbencho", 10, "Dirs lat % us: list not closed")

	r, err := ParseConsole(dropLast(t, rel))
	if err != nil {
		t.Fatal(err)
	}
	p := r.Phases[0]
	if p.Name != "MKDIRS" || p.EntryType != "Dirs" || p.EntriesPerSec != 31 || p.First.EntriesPerSec != 32 ||
		p.Last.Entries != 2 || p.First.CPUPct != 3 || p.ElapsedMs != 63 || p.First.ElapsedMs != 61 || p.IOPS != 0 {
		t.Errorf("MKDIRS = %+v", p)
	}
	want := bench.Latency{}
	want.Set(bench.Min, 61400)
	want.Set(bench.Avg, 62500)
	want.Set(bench.Max, 63700)
	if p.LatUs != want || len(p.Latency) != 1 || p.Latency[0].Type != "Dirs" {
		t.Errorf("latency %+v", p.Latency)
	}
	if row := p.Rows[4]; row.Label != "Time ms each" || strings.Join(row.List, ",") != "63,61" {
		t.Errorf("row %+v", row)
	}
}

func TestConsoleLoggerPrefixAndPartial(t *testing.T) {
	r, err := ParseConsole(samples.Read(t, "elbencho/console-v3-s3-mkbuckets-write-cbt-log-PARTIAL-pr359.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Phases) != 3 {
		t.Fatalf("%d phases", len(r.Phases))
	}
	w1, mk, w2 := r.Phases[0], r.Phases[1], r.Phases[2]
	if w1.Name != "WRITE" || w1.ElapsedMs != 15296 || w1.EntryType != "Objects" || w1.EntriesPerSec != 6 || w1.MiBps != 65 || w1.Last.Entries != 100 {
		t.Errorf("first WRITE %+v", w1)
	}
	if mk.Name != "MKBUCKETS" || mk.EntryType != "Buckets" || mk.EntriesPerSec != 30 || mk.Last.Entries != 1 || mk.ElapsedMs != 32 {
		t.Errorf("MKBUCKETS %+v", mk)
	}
	if w2.ElapsedMs != 14868 || w2.MiBps != 67 {
		t.Errorf("second WRITE %+v", w2)
	}
}

func TestConsoleLiveCSVOnStdout(t *testing.T) {
	rel := "elbencho/livecsv-stdout-read-PARTIAL-issue99.txt"
	_, err := ParseConsole(samples.Read(t, rel))
	wantErr(t, err, "elbencho", 1, "shell prompt") // the sample starts with the command line
	_, err = ParseConsole(samples.Sections(t, rel, nil)[0])
	wantErr(t, err, "elbencho", 13, "live CSV row has 5 fields, header has 18")

	out := string(samples.Sections(t, rel, nil)[0])
	out = out[:strings.LastIndex(strings.TrimRight(out, "\n"), "\n")+1] // without the cut last line
	r, err := ParseConsole([]byte(out))
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Phases) != 0 || len(r.Live) != 9 {
		t.Fatalf("%d phases, %d live rows", len(r.Phases), len(r.Live))
	}
	l := r.Live[8]
	if l.Phase != "READ" || l.RuntimeMs != 9001 || l.Rank != "Total" || l.DonePct != 100 || l.MiBps != 50607 ||
		l.IOPS != 101214 || l.LatIOUs != 10021 || l.Active != 128 || l.CPUPct != 6 || l.ISODate != "2025-12-17T11:58:16.821-0600" {
		t.Errorf("live row 8 = %+v", l)
	}
}

func TestConsoleErrors(t *testing.T) {
	_, err := ParseConsole([]byte("nothing here\n"))
	wantErr(t, err, "elbencho", 0, "no result table found")
	_, err = ParseConsole([]byte("ERROR: Unable to open file: /x\n"))
	wantErr(t, err, "elbencho", 1, "reported an error")
	_, err = ParseConsole([]byte("WRITE     Elapsed time     :     11.559s\n"))
	wantErr(t, err, "elbencho", 1, "want FIRST DONE and LAST DONE values, got 1")
	_, err = ParseConsole([]byte("WRITE     Elapsed time     :     soon     11.559s\n"))
	wantErr(t, err, "elbencho", 1, `"soon" is not a duration`)
	_, err = ParseConsole([]byte("READ      Elapsed ms       :   1   2\n          IOPS             :   x   3\n"))
	wantErr(t, err, "elbencho", 2, `IOPS: "x" is not a number`)
	_, err = ParseConsole([]byte("READ      Elapsed ms       :   1   2\n          IO lat hist      : [ 12 3 ]\n"))
	wantErr(t, err, "elbencho", 2, "lacks ':'")
	_, err = ParseConsole([]byte("READ      Elapsed ms       :   1   2\n          IO lat % us      : [ 50%=3 ]\n"))
	wantErr(t, err, "elbencho", 2, "is not N%<=µs")
	_, err = ParseConsole([]byte("READ      Elapsed ms       :   1   2\n          IO latency       : [ mid=3us ]\n"))
	wantErr(t, err, "elbencho", 2, "not min=, avg= or max=")
}

func TestConsoleRWMixAndOldLatency(t *testing.T) {
	// Row labels as printed by elbencho's Statistics.cpp for --rwmixpct
	// with --lat in 1.x ("lat us") and 3.x ("latency") form.
	in := `OPERATION   RESULT TYPE         FIRST DONE   LAST DONE
=========== ================    ==========   =========
WRITE       Elapsed time     :      1.000s      2.000s
            IOPS write       :         100          90
            IOPS read        :         300         270
            IOPS total       :         400         360
            MB/s write       :          10           9
            MB/s total       :        1000        1048
            IO lat us        : [ min=10 avg=20 max=30 ]
            IO lat % us      : [ Histogram exceeded ]
            Entries latency  : [ min=1.50ms avg=2.00s max=3us ]
---
`
	r, err := ParseConsole([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	p := r.Phases[0]
	if p.IOPS != 360 || p.First.IOPS != 400 || p.ElapsedMs != 2000 || p.MiBps != 1048*1e6/(1<<20) {
		t.Errorf("rwmix %+v", p)
	}
	if p.LatUs.Min != 10 || p.LatUs.Avg != 20 || p.LatUs.Max != 30 || p.LatUs.Has(bench.P50) || !p.Latency[0].HistogramExceeded {
		t.Errorf("IO latency %+v", p.Latency)
	}
	if e := p.Latency[1]; e.Type != "Entries" || e.Us.Min != 1500 || e.Us.Avg != 2e6 || e.Us.Max != 3 {
		t.Errorf("entries latency %+v", e)
	}
}

// With --iterations N elbencho prints "[Starting iteration K of N...]" and
// the table header again per iteration: one run, read whole; the same
// output twice is still refused (iteration 1 after iteration 2).
func TestConsoleIterations(t *testing.T) {
	one := string(samples.Sections(t, "elbencho/console-v3-write-1thread-direct-issue75.txt", nil)[0])
	iters := "[Starting iteration 1 of 2...]\n" + one + "[Starting iteration 2 of 2...]\n" + one
	r, err := ParseConsole([]byte(iters))
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Phases) != 2 || r.Phases[0].Name != "WRITE" || r.Phases[1].Name != "WRITE" {
		t.Fatalf("phases %+v", r.Phases)
	}
	_, err = ParseConsole([]byte(iters + iters))
	wantErr(t, err, "elbencho", 0, "iteration 1 after iteration 2")
	_, err = ParseConsole([]byte("[Starting iteration 1 of 2...]\n" + one + one))
	wantErr(t, err, "elbencho", 0, "without an iteration line")
}
