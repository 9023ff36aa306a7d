package mpstat

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/provadev/prova/parse"
)

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

func mustParse(t *testing.T, data []byte) *Result {
	t.Helper()
	r, err := Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestCLocale(t *testing.T) {
	r := mustParse(t, sections(t, "mpstat/mpstat-P-ALL-1-2-C-locale.txt")[0])
	if r.Host != (Host{Sysname: "Linux", Release: "6.18.44-fc-v782", Nodename: "vm", Date: "11/29/26", Machine: "x86_64", CPUs: 2}) {
		t.Errorf("host: %+v", r.Host)
	}
	if len(r.Intervals) != 2 || r.Intervals[1].Time != "14:03:49" || len(r.Intervals[1].CPUs) != 3 {
		t.Fatalf("intervals: %+v", r.Intervals)
	}
	if c := r.Intervals[1].CPUs[2]; c.CPU != "1" || c.Usr != 86 || c.Sys != 13 || c.Steal != 1 || c.Idle != 0 {
		t.Errorf("interval 2 cpu 1: %+v", c)
	}
	want := CPULoad{CPU: "0", Usr: 88.56, Sys: 10.45, Steal: 0.50, Idle: 0.50}
	if len(r.Average) != 3 || r.Average[1] != want {
		t.Errorf("average: %+v", r.Average)
	}
	s := r.Summary()
	if s.Source != "average" || s.Intervals != 2 || s.All.Usr != 89.75 || s.All.Sys != 9.25 || s.All.Soft != 0 || len(s.PerCPU) != 2 {
		t.Errorf("summary: %+v", s)
	}
	if !near(s.BusyCores, (100-0.50)/100+(100-0.50)/100) {
		t.Errorf("busy cores %v", s.BusyCores)
	}
}

func TestAMPMLocale(t *testing.T) {
	r := mustParse(t, sections(t, "mpstat/mpstat-P-ALL-1-2-en_US-AMPM.txt")[0])
	if len(r.Intervals) != 2 || r.Intervals[0].Time != "02:04:06 PM" || r.Host.Date != "11/29/2026" {
		t.Fatalf("intervals: %+v", r.Intervals)
	}
	if c := r.Intervals[0].CPUs[1]; c.CPU != "0" || c.Usr != 95.05 || c.Steal != 0.99 {
		t.Errorf("row: %+v", c)
	}
	s := r.Summary()
	if s.Source != "average" || s.All.Usr != 94.50 || s.All.Sys != 4.00 {
		t.Errorf("summary: %+v", s)
	}
	if !near(s.BusyCores, (100-1.00)/100+(100-1.51)/100) {
		t.Errorf("busy cores %v", s.BusyCores)
	}
}

func TestNoP(t *testing.T) {
	r := mustParse(t, sections(t, "mpstat/mpstat-1-2-no-P.txt")[0])
	if len(r.Intervals) != 2 || r.Intervals[0].Time != "14:03:56" || r.Intervals[1].CPUs[0].Usr != 82.32 {
		t.Fatalf("intervals: %+v", r.Intervals)
	}
	s := r.Summary()
	if s.All.Usr != 81.31 || s.All.Sys != 16.92 || len(s.PerCPU) != 0 || !s.BusyFromAll {
		t.Errorf("summary: %+v", s)
	}
	if !near(s.BusyCores, (100-1.52)/100*2) {
		t.Errorf("busy cores %v", s.BusyCores)
	}
}

func TestJSON(t *testing.T) {
	r := mustParse(t, sections(t, "mpstat/mpstat-o-JSON-P-ALL-1-2.json")[0])
	if r.Host.Nodename != "vm" || r.Host.CPUs != 2 || r.Host.Machine != "x86_64" || r.Truncated || r.Average != nil {
		t.Errorf("result: %+v", r)
	}
	if len(r.Intervals) != 2 || r.Intervals[1].Time != "14:03:51" || r.Intervals[1].CPUs[1] != (CPULoad{CPU: "0", Usr: 83.84, Sys: 15.15, Idle: 1.01}) {
		t.Fatalf("intervals: %+v", r.Intervals)
	}
	s := r.Summary()
	if s.Source != "intervals" || !near(s.All.Usr, (93.00+81.91)/2) || !near(s.All.Sys, (7.00+16.58)/2) {
		t.Errorf("summary all: %+v", s.All)
	}
	// CPU 0 idle 0.00 and 1.01, CPU 1 idle 0.00 and 2.00.
	if want := (100-(0+1.01)/2)/100 + (100-(0+2.00)/2)/100; !near(s.BusyCores, want) {
		t.Errorf("busy cores %v, want %v", s.BusyCores, want)
	}
}

func TestJSONTruncated(t *testing.T) {
	full := sections(t, "mpstat/mpstat-o-JSON-P-ALL-1-2.json")[0]
	cut := full[:bytes.Index(full, []byte(`"timestamp": "14:03:51"`))+30]
	r := mustParse(t, cut)
	if !r.Truncated || len(r.Intervals) != 1 || r.Intervals[0].Time != "14:03:50" {
		t.Errorf("got %+v", r)
	}
}

// A run stopped with SIGTERM: no Average block, last line cut.
func TestInterruptedText(t *testing.T) {
	full := string(sections(t, "mpstat/mpstat-P-ALL-1-2-C-locale.txt")[0])
	cut := full[:strings.Index(full, "Average:")]
	r := mustParse(t, []byte(cut))
	if r.Average != nil || len(r.Intervals) != 2 || r.Truncated {
		t.Fatalf("got %+v", r)
	}
	s := r.Summary()
	if s.Source != "intervals" || !near(s.All.Usr, (91.50+88.00)/2) {
		t.Errorf("summary %+v", s)
	}
	mid := full[:strings.Index(full, "14:03:49       1")+25]
	r = mustParse(t, []byte(mid))
	if !r.Truncated || len(r.Intervals) != 2 || len(r.Intervals[1].CPUs) != 2 {
		t.Errorf("cut mid-row: %+v", r)
	}
}

func TestDecimalCommaAndTranslatedAverage(t *testing.T) {
	in := "Linux 6.1.0 (n1) \t29.11.2026 \t_x86_64_\t(1 CPU)\n\n" +
		"14:03:47     CPU    %usr   %nice    %sys %iowait    %irq   %soft  %steal  %guest  %gnice   %idle\n" +
		"14:03:48     all   10,50    0,00    2,00    0,00    0,00    4,00    0,00    0,00    0,00   83,50\n" +
		"14:03:48       0   10,50    0,00    2,00    0,00    0,00    4,00    0,00    0,00    0,00   83,50\n\n" +
		"Durchschn.:  CPU    %usr   %nice    %sys %iowait    %irq   %soft  %steal  %guest  %gnice   %idle\n" +
		"Durchschn.:  all   10,50    0,00    2,00    0,00    0,00    4,00    0,00    0,00    0,00   83,50\n" +
		"Durchschn.:    0   10,50    0,00    2,00    0,00    0,00    4,00    0,00    0,00    0,00   83,50\n"
	r := mustParse(t, []byte(in))
	s := r.Summary()
	if len(r.Average) != 2 || s.All.Soft != 4 || !near(s.BusyCores, 0.165) || r.Host.CPUs != 1 {
		t.Errorf("got %+v / %+v", r, s)
	}
}

func TestUsageIsError(t *testing.T) {
	_, err := Parse(sections(t, "mpstat/error-invalid-cpu.txt")[0])
	var pe *parse.Error
	if !errors.As(err, &pe) || pe.Tool != "mpstat" || pe.Line != 1 || !strings.Contains(pe.Reason, "usage") {
		t.Errorf("got %v", err)
	}
}

func TestGarbageRows(t *testing.T) {
	good := strings.Split(string(sections(t, "mpstat/mpstat-P-ALL-1-2-C-locale.txt")[0]), "\n")
	for _, c := range []struct {
		line int
		with string
	}{
		{5, "14:03:48       0   87.13    0.00   11.88    0.00    0.00    0.00    0.99    0.00    0.00"},
		{5, "14:03:48       0   87.13    0.00   11.88    0.00    0.00    0.00    0.99    0.00    0.00    x"},
		{5, "14:03:48    cpu0   87.13    0.00   11.88    0.00    0.00    0.00    0.99    0.00    0.00    0.00"},
		{15, "14:03:49     all   89.75    0.00    9.25    0.00    0.00    0.00    0.50    0.00    0.00    0.50"},
		{1, "hello"},
	} {
		mod := append([]string(nil), good...)
		mod[c.line-1] = c.with
		_, err := Parse([]byte(strings.Join(mod, "\n")))
		var pe *parse.Error
		if !errors.As(err, &pe) || pe.Tool != "mpstat" || pe.Line != c.line || pe.Text != c.with {
			t.Errorf("line %d %q: got %v", c.line, c.with, err)
		}
	}
	_, err := Parse([]byte(`{"sysstat": {"hosts": [{"statistics": [{"timestamp": "1", "cpu-load": [{"cpu": "all", "usr": "x"}]}]}]}}`))
	var pe *parse.Error
	if !errors.As(err, &pe) || pe.Tool != "mpstat -o JSON" || pe.Line != 1 {
		t.Errorf("json type error: %v", err)
	}
}

func TestReportJSON(t *testing.T) {
	p := Parsers()[0]
	v, err := p.Parse(sections(t, "mpstat/mpstat-P-ALL-1-2-C-locale.txt")[0])
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var back struct {
		Host    Host `json:"host"`
		Summary struct {
			BusyCores float64 `json:"busy_cores"`
		} `json:"summary"`
	}
	if err := json.Unmarshal(b, &back); err != nil || back.Host.CPUs != 2 || !near(back.Summary.BusyCores, 1.99) {
		t.Errorf("report JSON %s: %v", b, err)
	}
}

func FuzzParse(f *testing.F) {
	for _, rel := range []string{
		"mpstat/mpstat-P-ALL-1-2-C-locale.txt", "mpstat/mpstat-P-ALL-1-2-en_US-AMPM.txt",
		"mpstat/mpstat-1-2-no-P.txt", "mpstat/mpstat-o-JSON-P-ALL-1-2.json", "mpstat/error-invalid-cpu.txt",
	} {
		f.Add(sections(f, rel)[0])
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := Parse(data)
		if err != nil {
			var pe *parse.Error
			if !errors.As(err, &pe) || pe.Tool == "" || pe.Reason == "" {
				t.Fatalf("error %T %v", err, err)
			}
			return
		}
		if r == nil {
			t.Fatal("nil result without error")
		}
		_ = r.Summary()
	})
}

func TestAMPMWithoutP(t *testing.T) {
	in := "Linux 6.1.0 (n1) \t11/29/2026 \t_x86_64_\t(4 CPU)\n\n" +
		"02:04:05 PM  CPU    %usr   %nice    %sys %iowait    %irq   %soft  %steal  %guest  %gnice   %idle\n" +
		"02:04:06 PM  all   20.00    0.00    5.00    0.00    0.00    8.00    0.00    0.00    0.00   67.00\n" +
		"Average:     all   20.00    0.00    5.00    0.00    0.00    8.00    0.00    0.00    0.00   67.00\n"
	r := mustParse(t, []byte(in))
	s := r.Summary()
	if len(r.Intervals) != 1 || r.Intervals[0].Time != "02:04:06 PM" || len(r.Average) != 1 || s.All.Soft != 8 || !near(s.BusyCores, 0.33*4) {
		t.Errorf("got %+v / %+v", r, s)
	}
}

// A German locale: decimal comma, a dotted date and "Durchschn.:" for the
// average block (real sample, sysstat 2009).
func TestGermanLocaleSample(t *testing.T) {
	secs := sections(t, "mpstat/mpstat-P-ALL-2-de_DE-decimal-comma-2009.txt")
	r, err := Parse(secs[len(secs)-1])
	if err != nil {
		t.Fatal(err)
	}
	if r.Host.Date != "09.07.2009" || r.Host.CPUs != 2 || len(r.Intervals) != 10 || len(r.Average) != 3 || r.Truncated {
		t.Fatalf("host %+v, %d intervals, %d average rows", r.Host, len(r.Intervals), len(r.Average))
	}
	if a := r.Average[0]; a.CPU != "all" || a.Usr != 0.69 || a.Sys != 0.64 || a.Idle != 98.64 {
		t.Errorf("average all = %+v", a)
	}
	if c := r.Intervals[1].CPUs[1]; c.CPU != "0" || c.Idle != 100 {
		t.Errorf("interval 2 cpu 0 = %+v", c)
	}
}

// %iowait is idle time with I/O outstanding: a CPU waiting on a slow
// device is not busy (issue 19 item 2), and the hottest core is reported.
func TestBusyCoresExcludeIOWait(t *testing.T) {
	r := &Result{Average: []CPULoad{
		{CPU: "all", Usr: 5, Sys: 5, IOWait: 40, Idle: 50},
		{CPU: "0", Usr: 10, Sys: 10, IOWait: 80, Idle: 0},
		{CPU: "1", Usr: 0, Sys: 0, IOWait: 0, Idle: 100},
	}}
	s := r.Summary()
	if !near(s.BusyCores, 0.2) || !near(s.HottestPct, 20) {
		t.Errorf("busy cores %v, hottest %v; want 0.2 and 20 (iowait is not work)", s.BusyCores, s.HottestPct)
	}
}
