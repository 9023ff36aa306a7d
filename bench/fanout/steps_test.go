package benchfanout

import (
	"context"
	"math"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestParseSteps(t *testing.T) {
	for in, want := range map[string][]int{"": {Steps}, " ": {Steps}, "1,10, 30": {1, 10, 30}, "1000": {MaxSteps}} {
		got, err := ParseSteps(in)
		if err != nil || !slices.Equal(got, want) {
			t.Errorf("ParseSteps(%q) = %v, %v, want %v", in, got, err, want)
		}
	}
	for _, bad := range []string{"0", "-1", "1001", "ten", "1,,2"} {
		if got, err := ParseSteps(bad); err == nil {
			t.Errorf("ParseSteps(%q) = %v, want an error", bad, got)
		}
	}
}

// TestWorkloadStepsReachEveryTool: a workload of 3 steps makes every tool
// run 3 commands per host, and one of 0 is refused.
func TestWorkloadStepsReachEveryTool(t *testing.T) {
	lab := &Lab{User: "root", KeyFile: "/keys/id_ed25519", KnownHosts: "/keys/known_hosts",
		Endpoints: []Endpoint{{Addr: "127.0.0.1", Port: 2201}, {Addr: "127.0.0.1", Port: 2202}}}
	hosts, err := lab.Hosts(2)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := NewWorkload(lab, hosts, 0, t.TempDir(), t.TempDir()); err == nil {
		t.Error("NewWorkload of 0 steps: no error")
	}
	w, err := NewWorkload(lab, hosts, 3, t.TempDir(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if w.Steps != 3 {
		t.Fatalf("Steps = %d, want 3", w.Steps)
	}
	count := func(path, re string) int {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		return len(regexp.MustCompile(re).FindAllString(string(b), -1))
	}
	if n := count(w.Runbook, `(?m)^step "shell" `); n != 3 {
		t.Errorf("runbook has %d steps, want 3", n)
	}
	for _, book := range []string{w.RawBook, w.CmdBook} {
		if n := count(book, `(?m)^    - name: s\d+$`); n != 3 {
			t.Errorf("%s has %d tasks, want 3", book, n)
		}
	}
	if n := count(w.SSHHost, `(?m)^while \[ \$i -lt 3 \]; do$`); n != 1 {
		t.Errorf("openssh-host.sh does not loop 3 times")
	}
	for _, tool := range Tools(Bins{Prova: "/bin/prova", Floor: "/bin/floor", Reap: "/bin/reap"}) {
		if tool.Name != Floor && tool.Name != FloorLockstep {
			continue
		}
		args := strings.Join(tool.cmd(context.Background(), w).Args, " ")
		if !strings.Contains(args, " -n 3 ") {
			t.Errorf("%s runs %q, want -n 3", tool.Name, args)
		}
	}
}

// TestFitRecoversTheParts: runs made of a known a + b·N + c·N·steps, with
// noise of both signs, give back a, b and c within their errors.
func TestFitRecoversTheParts(t *testing.T) {
	const a, b, c = 0.020, 0.0008, 0.00009 // s per run, per host, per host-step
	var rows []Row
	noise := []time.Duration{-300 * time.Microsecond, 200 * time.Microsecond, 100 * time.Microsecond}
	for _, n := range []int{50, 200} {
		for _, s := range []int{1, 10, 30} {
			exact := a + b*float64(n) + c*float64(n*s)
			var us []Usage
			for _, e := range noise {
				us = append(us, Usage{User: time.Duration(exact*float64(time.Second)) + e})
			}
			rows = append(rows, Row{Hosts: n, Steps: s, Tool: Prova, Runs: len(us), Usage: Mean(us), Samples: us})
		}
	}
	rows = append(rows, Row{Hosts: 50, Steps: 1, Tool: Floor, Runs: 1, Usage: Usage{User: time.Second}})
	f, err := Fit(rows, Prova)
	if err != nil {
		t.Fatal(err)
	}
	if f.Points != 18 || f.Cells != 6 {
		t.Errorf("fitted %d runs in %d cells, want 18 in 6", f.Points, f.Cells)
	}
	for i, p := range []struct{ got, want float64 }{{f.PerRun, a}, {f.PerHost, b}, {f.PerHostStep, c}} {
		if f.SE[i] <= 0 || math.Abs(p.got-p.want) > 3*f.SE[i] {
			t.Errorf("part %d = %g ± %g, want %g", i, p.got, f.SE[i], p.want)
		}
	}
	// One step count cannot separate per host from per host-step.
	if _, err := Fit(rows[:1], Prova); err == nil {
		t.Error("Fit of one cell: no error")
	}
	if _, err := Fit([]Row{rows[0], rows[3]}, Prova); err == nil {
		t.Error("Fit of one step count: no error")
	}
	txt := FitText([]CostFit{f, f})
	if !strings.Contains(txt, "prova / prova: a 1.00x, b 1.00x, c 1.00x") {
		t.Errorf("FitText:\n%s", txt)
	}
}

func TestTablesWithStepCounts(t *testing.T) {
	rows := []Row{
		{Hosts: 10, Tool: Floor, Runs: 1, Usage: usage(time.Second, 100*time.Millisecond, 10*mib)},
		{Hosts: 10, Tool: Prova, Runs: 1, Usage: usage(1100*time.Millisecond, 150*time.Millisecond, 20*mib)},
		{Hosts: 10, Steps: 1, Tool: Floor, Runs: 1, Usage: usage(500*time.Millisecond, 20*time.Millisecond, 10*mib)},
		{Hosts: 10, Steps: 1, Tool: Prova, Runs: 1, Usage: usage(1000*time.Millisecond, 40*time.Millisecond, 20*mib)},
	}
	md := Markdown(rows)
	for _, want := range []string{
		"| N | steps | tool |",
		"| 10 | 10 | prova | 1 | 1.10 | 0.15 | 1.50 | 20.0 | - | 1.10x |",
		// Per host-step and the ratio are of the row's own step count.
		"| 10 | 1 | prova | 1 | 1.00 | 0.04 | 4.00 | 20.0 | - | 2.00x |",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("Markdown lacks %q:\n%s", want, md)
		}
	}
	// The goals are of the default workload only.
	if g := strings.Join(Goals(rows), "\n"); !strings.Contains(g, "N=10 1.50x: NOT met") || !strings.Contains(g, "N=10 1.10x: met") {
		t.Errorf("Goals:\n%s", g)
	}
	if h := Headlines(rows); len(h) != 1 || !strings.HasPrefix(h[0], "N=10: prova 1.10x the floor's wall time") {
		t.Errorf("Headlines = %q", h)
	}
	if txt := Text(rows); !strings.Contains(txt, "    N steps  tool") {
		t.Errorf("Text has no steps column:\n%s", txt)
	}
	if strings.Contains(Markdown(rows[:2]), "steps") || strings.Contains(Text(rows[:2]), "steps") {
		t.Error("the default workload's tables have a steps column")
	}
}
