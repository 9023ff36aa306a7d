package mpstat

import (
	"context"
	"encoding/json"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/provadev/prova/internal/testkit/samples"
	"github.com/provadev/prova/lab/model"
	"github.com/provadev/prova/lab/sim"
	"github.com/provadev/prova/lab/sim/simtest"
)

var vm = &model.Node{Name: "vm", CPUs: 2, Kernel: "6.18.44-fc-v782"}

func runMP(t *testing.T, n *model.Node, env map[string]string, load *sim.LoadState, args ...string) simtest.Result {
	t.Helper()
	c := &simtest.Clock{T: time.Date(2026, 11, 29, 14, 3, 47, 0, time.UTC)}
	e, out, errb := simtest.Env(t, n, c, env, args...)
	if load != nil {
		if err := e.SetLoad(*load); err != nil {
			t.Fatal(err)
		}
	}
	table, _ := sim.NewTable(Tool())
	st := table.Run(context.Background(), "mpstat", e)
	return simtest.Result{Stdout: out.String(), Stderr: errb.String(), Status: st}
}

var (
	num  = regexp.MustCompile(` *\d+\.\d\d`)
	hhmm = regexp.MustCompile(`\d\d:\d\d:\d\d`)
)

// mask hides the figures and times that differ between runs.
func mask(s string) string { return hhmm.ReplaceAllString(num.ReplaceAllString(s, " N"), "T") }

func TestTextSamples(t *testing.T) {
	for _, c := range []struct {
		sample string
		env    map[string]string
		args   []string
	}{
		{"mpstat/mpstat-P-ALL-1-2-C-locale.txt", map[string]string{"LANG": "C.UTF-8"}, []string{"-P", "ALL", "1", "2"}},
		{"mpstat/mpstat-P-ALL-1-2-en_US-AMPM.txt", map[string]string{"LC_ALL": "en_US.UTF-8"}, []string{"-P", "ALL", "1", "2"}},
		{"mpstat/mpstat-1-2-no-P.txt", nil, []string{"1", "2"}},
	} {
		r := runMP(t, vm, c.env, nil, c.args...)
		want := string(samples.Read(t, c.sample))
		if d := cmp.Diff(mask(want), mask(r.Stdout)); d != "" || r.Status != 0 {
			t.Errorf("%s (-sample +sim, figures masked):\n%s", c.sample, d)
		}
	}
}

func TestLoadAndAverage(t *testing.T) {
	load := &sim.LoadState{All: sim.CPULoad{Usr: 10, Sys: 5, Soft: 8}, PerCPU: map[int]sim.CPULoad{1: {Usr: 90, Sys: 9.5}}}
	r := runMP(t, vm, nil, load, "-P", "ALL", "1", "3")
	lines := strings.Split(r.Stdout, "\n")
	var avgAll, cpu1 string
	for _, l := range lines {
		if strings.HasPrefix(l, "Average:     all") {
			avgAll = l
		}
		if strings.HasPrefix(l, "14:03:50       1") {
			cpu1 = l
		}
	}
	if avgAll != "Average:     all   50.00    0.00    7.25    0.00    0.00    4.00    0.00    0.00    0.00   38.75" {
		t.Errorf("average row %q", avgAll)
	}
	if cpu1 != "14:03:50       1   90.00    0.00    9.50    0.00    0.00    0.00    0.00    0.00    0.00    0.50" {
		t.Errorf("cpu 1 row %q", cpu1)
	}
	if n := strings.Count(r.Stdout, "CPU    %usr"); n != 4 {
		t.Errorf("%d headers, want 3 intervals + Average", n)
	}
}

func TestJSONSample(t *testing.T) {
	r := runMP(t, vm, nil, nil, "-o", "JSON", "-P", "ALL", "1", "2")
	want := string(samples.Read(t, "mpstat/mpstat-o-JSON-P-ALL-1-2.json"))
	if d := cmp.Diff(mask(want), mask(r.Stdout)); d != "" {
		t.Errorf("JSON (-sample +sim, figures masked):\n%s", d)
	}
	var v struct {
		Sysstat struct {
			Hosts []struct {
				Stats []struct {
					Load []map[string]any `json:"cpu-load"`
				} `json:"statistics"`
			} `json:"hosts"`
		} `json:"sysstat"`
	}
	if err := json.Unmarshal([]byte(r.Stdout), &v); err != nil || len(v.Sysstat.Hosts[0].Stats) != 2 {
		t.Fatalf("JSON does not decode: %v", err)
	}
	if idle := v.Sysstat.Hosts[0].Stats[1].Load[2]["idle"]; idle != 100.0 {
		t.Errorf("idle node: idle = %v", idle)
	}
}

func TestErrors(t *testing.T) {
	r := runMP(t, vm, nil, nil, "-P", "5", "1", "1")
	want := simtest.Sample(samples.Read(t, "mpstat/error-invalid-cpu.txt"))
	if r.Stderr != want || r.Status != 1 || r.Stdout != "" {
		t.Errorf("invalid CPU: %q status %d", r.Stderr, r.Status)
	}
	if r := runMP(t, vm, nil, nil, "x"); r.Status != 1 {
		t.Errorf("bad interval accepted")
	}
	// No interval: one report, no Average.
	if r := runMP(t, vm, nil, nil); strings.Contains(r.Stdout, "Average") || strings.Count(r.Stdout, " all ") != 1 {
		t.Errorf("no-interval report:\n%s", r.Stdout)
	}
}

// An interval without a count runs until cancelled.
func TestRunsUntilCancelled(t *testing.T) {
	c := &simtest.Clock{T: time.Now()}
	e, out, _ := simtest.Env(t, vm, c, nil, "1")
	ctx, cancel := context.WithCancel(context.Background())
	ticks := 0
	e.Sleep = func(ctx context.Context, d time.Duration) error {
		if ticks++; ticks == 5 {
			cancel()
		}
		return ctx.Err()
	}
	table, _ := sim.NewTable(Tool())
	if st := table.Run(ctx, "mpstat", e); st != 0 {
		t.Fatalf("status %d", st)
	}
	if n := strings.Count(out.String(), " all "); n != 4+1 {
		t.Errorf("%d rows before cancel (4 intervals + Average)", n)
	}
}
