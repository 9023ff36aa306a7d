package benchfanout

import (
	"strings"
	"testing"
	"time"
)

func usage(wall, cpu time.Duration, rss int64) Usage {
	return Usage{Wall: wall, User: cpu, MaxRSS: rss}
}

func TestMeanAveragesTimesAndKeepsPeaks(t *testing.T) {
	m := Mean([]Usage{
		{Wall: time.Second, User: 100 * time.Millisecond, Sys: 10 * time.Millisecond, VolCS: 100, InvolCS: 7, MaxRSS: 5 * mib, TreePSS: 9 * mib},
		{Wall: 3 * time.Second, User: 300 * time.Millisecond, Sys: 30 * time.Millisecond, VolCS: 300, InvolCS: 9, MaxRSS: 7 * mib, TreePSS: 8 * mib},
	})
	want := Usage{Wall: 2 * time.Second, User: 200 * time.Millisecond, Sys: 20 * time.Millisecond, VolCS: 200, InvolCS: 8, MaxRSS: 7 * mib, TreePSS: 9 * mib}
	if m != want {
		t.Fatalf("Mean = %+v, want %+v", m, want)
	}
	if got := m.CPU(); got != 220*time.Millisecond {
		t.Errorf("CPU = %v, want 220ms", got)
	}
	if (Mean(nil) != Usage{}) {
		t.Error("Mean(nil) is not zero")
	}
}

func TestTablesShowRatiosToTheFloorAndSkippedTools(t *testing.T) {
	rows := []Row{
		{Hosts: 10, Tool: Floor, Runs: 2, Usage: usage(time.Second, 200*time.Millisecond, 10*mib)},
		{Hosts: 10, Tool: FloorLockstep, Runs: 2, Usage: usage(1250*time.Millisecond, 200*time.Millisecond, 10*mib)},
		{Hosts: 10, Tool: Prova, Runs: 2, Usage: usage(1100*time.Millisecond, 500*time.Millisecond, 20*mib)},
		{Hosts: 10, Tool: AnsibleRaw, Runs: 1, Usage: usage(22*time.Second, 9*time.Second, 50*mib)},
		{Hosts: 10, Tool: AnsibleCommand, Skipped: "ansible-playbook is not installed"},
		{Hosts: 50, Tool: Prova, Runs: 1, Usage: usage(3*time.Second, time.Second, 30*mib)},
	}
	md := Markdown(rows)
	for _, want := range []string{
		"| 10 | floor | 2 | 1.00 | 0.20 | 2.00 | 10.0 | - | 1.00x |",
		"| 10 | floor-lockstep | 2 | 1.25 | 0.20 | 2.00 | 10.0 | - | 1.25x |",
		"| 10 | prova | 2 | 1.10 | 0.50 | 5.00 | 20.0 | - | 1.10x |",
		"| 10 | ansible-raw | 1 | 22.00 | 9.00 | 90.00 | 50.0 | - | 22.00x |",
		"| 10 | ansible-command | 0 | skipped: ansible-playbook is not installed |",
		// No floor at N=50: no ratio.
		"| 50 | prova | 1 | 3.00 | 1.00 | 2.00 | 30.0 | - | - |",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("Markdown lacks %q:\n%s", want, md)
		}
	}
	txt := Text(rows)
	if !strings.Contains(txt, "ansible-command  skipped: ansible-playbook is not installed") {
		t.Errorf("Text lacks the skipped row:\n%s", txt)
	}
	heads := Headlines(rows)
	if len(heads) != 2 {
		t.Fatalf("Headlines = %q, want one line per N", heads)
	}
	if want := "N=10: prova 1.10x the floor's wall time; 0.88x the lockstep floor's; ansible-raw 20.0x prova's; prova peak RSS 20.0 MiB"; heads[0] != want {
		t.Errorf("Headlines[0] = %q\nwant %q", heads[0], want)
	}
	if want := "N=50: prova peak RSS 30.0 MiB"; heads[1] != want {
		t.Errorf("Headlines[1] = %q\nwant %q", heads[1], want)
	}
	if _, ok := Ratio(rows, 10, AnsibleCommand, Floor); ok {
		t.Error("Ratio of a skipped tool reported")
	}
}

func TestParsePSS(t *testing.T) {
	rollup := "00400000-7ffd1c5ff000 ---p 00000000 00:00 0                          [rollup]\n" +
		"Rss:               10432 kB\nPss:                6817 kB\nPss_Anon:           3184 kB\n"
	if got := parsePSS([]byte(rollup)); got != 6817*1024 {
		t.Errorf("parsePSS = %d, want %d", got, 6817*1024)
	}
	for _, bad := range []string{"", "Rss: 10 kB\n", "Pss: many kB\n"} {
		if got := parsePSS([]byte(bad)); got != 0 {
			t.Errorf("parsePSS(%q) = %d, want 0", bad, got)
		}
	}
}

func TestGoalsCompareProvaWithTheFloor(t *testing.T) {
	rows := []Row{
		{Hosts: 10, Tool: Floor, Runs: 2, Usage: usage(time.Second, 100*time.Millisecond, 10*mib)},
		{Hosts: 10, Tool: Prova, Runs: 2, Usage: usage(1050*time.Millisecond, 110*time.Millisecond, 20*mib)},
		{Hosts: 10, Tool: ProvaBaseline, Runs: 2, Usage: usage(1200*time.Millisecond, 250*time.Millisecond, 20*mib)},
		{Hosts: 200, Tool: Floor, Runs: 1, Usage: usage(4*time.Second, time.Second, 24*mib)},
		{Hosts: 200, Tool: Prova, Runs: 1, Usage: usage(5*time.Second, 1100*time.Millisecond, 50*mib)},
		{Hosts: 200, Tool: ProvaBaseline, Runs: 1, Usage: usage(6*time.Second, 1300*time.Millisecond, 60*mib)},
	}
	got := strings.Join(Goals(rows), "\n")
	for _, want := range []string{
		"goal: prova client CPU <= 1.2x the floor's: N=10 1.10x (baseline 2.50x), N=200 1.10x (baseline 1.30x): met",
		"goal: prova wall <= 1.1x the floor's: N=10 1.05x (baseline 1.20x), N=200 1.25x (baseline 1.50x): NOT met",
		"goal: prova peak RSS <= 40 MB at N=200: 52.4 MB = 50.0 MiB (baseline 62.9 MB; floor 25.2 MB): NOT met",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("Goals lack %q:\n%s", want, got)
		}
	}
	if g := strings.Join(Goals([]Row{rows[0], rows[1], rows[3], rows[4]}), "\n"); strings.Contains(g, "baseline") ||
		!strings.Contains(g, "N=10 1.05x, N=200 1.25x: NOT met") {
		t.Errorf("Goals without a baseline:\n%s", g)
	}
	if g := Goals(nil); len(g) != 0 {
		t.Errorf("Goals(nil) = %q", g)
	}
}

func TestBarrierSplitNeedsTheFreeRow(t *testing.T) {
	rows := []Row{
		{Hosts: 10, Tool: Floor, Runs: 2, Usage: usage(time.Second, 200*time.Millisecond, 10*mib)},
		{Hosts: 10, Tool: FloorLockstep, Runs: 2, Usage: usage(1250*time.Millisecond, 240*time.Millisecond, 10*mib)},
		{Hosts: 10, Tool: Prova, Runs: 2, Usage: usage(1100*time.Millisecond, 300*time.Millisecond, 20*mib)},
		{Hosts: 10, Tool: ProvaFree, Runs: 2, Usage: usage(1000*time.Millisecond, 260*time.Millisecond, 20*mib)},
		{Hosts: 50, Tool: Floor, Runs: 1, Usage: usage(2*time.Second, 400*time.Millisecond, 10*mib)},
		{Hosts: 50, Tool: Prova, Runs: 1, Usage: usage(3*time.Second, time.Second, 30*mib)},
	}
	got := BarrierSplit(rows)
	want := []string{"barrier split, client CPU / the floor's at N=10: prova 1.50x, prova-free 1.30x, floor-lockstep 1.20x"}
	if len(got) != len(want) || got[0] != want[0] {
		t.Errorf("BarrierSplit = %q; want %q (nothing at N=50, which has no prova-free row)", got, want)
	}
}
