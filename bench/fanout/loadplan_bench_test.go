package benchfanout_test

import (
	"context"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/provadev/prova/bench/fanout"
	"github.com/provadev/prova/engine/apply"
	"github.com/provadev/prova/engine/config"
	"github.com/provadev/prova/engine/eval"
	"github.com/provadev/prova/engine/module"
	"github.com/provadev/prova/engine/program"
	"github.com/provadev/prova/inventory"
	"github.com/provadev/prova/modules/all"
)

// The engine at scale, without network: a 100-step runbook over a
// 2,000-host HCL inventory, through the same calls as prova plan and
// apply (internal/cli load.go and execute.go), with fake hosts that answer
// every command at once. The benchmark lives here rather than in
// engine/plan because it binds the real modules (modules/all), which
// engine packages must not import.
const (
	scaleSteps = 100
	scaleHosts = 2000
)

func BenchmarkLoadPlan2000(b *testing.B) {
	rbPath, invPath := writeScale(b, scaleSteps, scaleHosts)
	reg := all.Registry()
	rb := mustLoad(b, rbPath)
	prog := mustBind(b, rb, reg)
	inv := mustInventory(b, invPath)
	scope := mustScope(b, rb, prog, inv)

	b.Run("load_runbook", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			mustLoad(b, rbPath)
		}
	})
	b.Run("bind", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			mustBind(b, rb, reg)
		}
	})
	// load_inventory parses the file every time (inventory.Load, no
	// cache); load_inventory_cached loads it as the CLI does, through the
	// parsed-inventory cache: each op reads and hashes the file, reads the
	// entry, verifies its checksum, build and file hash, and decodes it.
	// The goal line states both.
	var uncached *cost
	b.Run("load_inventory", func(b *testing.B) {
		c := loopCost(b, func() { mustInventory(b, invPath) })
		uncached = &c
		c.goal(fmt.Sprintf("HCL inventory of %d hosts loaded in <= 20 ms without the cache", scaleHosts), c.wall <= 20*time.Millisecond,
			"%s (CPU %s), %s, %d allocations", ms(c.wall), ms(c.cpu), mb(c.bytes), c.allocs)
	})
	b.Run("load_inventory_cached", func(b *testing.B) {
		opts := inventory.LoadOptions{CacheDir: b.TempDir()}
		if _, diags, _ := inventory.LoadWith(invPath, opts); diags.HasErrors() {
			b.Fatal(diags)
		}
		c := loopCost(b, func() {
			inv, diags, hit := inventory.LoadWith(invPath, opts)
			if diags.HasErrors() || !hit || len(inv.Hosts) != scaleHosts {
				b.Fatalf("cached load: hit %t, %d hosts, %v", hit, len(inv.Hosts), diags)
			}
		})
		was := "uncached not measured in this run"
		if uncached != nil {
			was = fmt.Sprintf("uncached %s (CPU %s)", ms(uncached.wall), ms(uncached.cpu))
		}
		c.goal(fmt.Sprintf("HCL inventory of %d hosts loaded in <= 20 ms from the parsed-inventory cache", scaleHosts), c.wall <= 20*time.Millisecond,
			"%s (CPU %s), %s, %d allocations; %s", ms(c.wall), ms(c.cpu), mb(c.bytes), c.allocs, was)
	})
	b.Run("variables_scope_locals", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			mustScope(b, rb, prog, inv)
		}
	})
	b.Run("plan_run", func(b *testing.B) {
		c := loopCost(b, func() { run(b, prog, scope, inv, apply.ModePlan) })
		c.goal(fmt.Sprintf("plan of %d steps x %d hosts in <= 300 ms and <= 200 MB allocated", scaleSteps, scaleHosts),
			c.wall <= 300*time.Millisecond && c.bytes <= 200e6,
			"%s (CPU %s), %s, %d allocations", ms(c.wall), ms(c.cpu), mb(c.bytes), c.allocs)
	})
	b.Run("validate_to_plan", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			rb := mustLoad(b, rbPath)
			prog := mustBind(b, rb, reg)
			inv := mustInventory(b, invPath)
			run(b, prog, mustScope(b, rb, prog, inv), inv, apply.ModePlan)
		}
	})
}

// BenchmarkApplyScale runs apply (fake hosts, every command exits 0) of the
// 100-step runbook at 250, 500 and 1,000 hosts, to show how the per-host
// evaluation scope grows with the number of hosts.
func BenchmarkApplyScale(b *testing.B) {
	reg := all.Registry()
	for _, n := range []int{250, 500, 1000} {
		rbPath, invPath := writeScale(b, scaleSteps, n)
		rb := mustLoad(b, rbPath)
		prog := mustBind(b, rb, reg)
		inv := mustInventory(b, invPath)
		scope := mustScope(b, rb, prog, inv)
		b.Run("hosts="+strconv.Itoa(n), func(b *testing.B) {
			hostSteps := 0
			c := loopCost(b, func() { hostSteps = countHostSteps(run(b, prog, scope, inv, apply.ModeApply)) })
			perWall := c.wall / time.Duration(max(hostSteps, 1))
			perCPU := c.cpu / time.Duration(max(hostSteps, 1))
			b.ReportMetric(float64(perWall.Nanoseconds())/1e3, "µs/host-step")
			if n == 1000 {
				c.goal("apply engine overhead <= 5 µs per host-step at 1,000 hosts", perWall <= 5*time.Microsecond,
					"%.1f µs (CPU %.1f µs) over %d host-steps, %d B and %d allocations per host-step",
					float64(perWall.Nanoseconds())/1e3, float64(perCPU.Nanoseconds())/1e3, hostSteps,
					c.bytes/int64(max(hostSteps, 1)), c.allocs/int64(max(hostSteps, 1)))
			}
		})
	}
}

// cost is what one op of a benchmark took on average: wall time, CPU time
// of the whole process (user + system, which contention on a shared
// machine disturbs less than wall time), bytes and allocations.
type cost struct {
	wall, cpu     time.Duration
	bytes, allocs int64
}

// loopCost runs f in b.Loop and reports its cost per op (cpu-ms/op next to
// the usual ns/op, B/op and allocs/op).
func loopCost(b *testing.B, f func()) cost {
	b.ReportAllocs()
	var ms0, ms1 runtime.MemStats
	runtime.ReadMemStats(&ms0)
	cpu0 := processCPU()
	start := time.Now()
	n := 0
	for b.Loop() {
		f()
		n++
	}
	wall := time.Since(start)
	cpu := processCPU() - cpu0
	runtime.ReadMemStats(&ms1)
	d := time.Duration(max(n, 1))
	c := cost{wall: wall / d, cpu: cpu / d,
		bytes:  int64(ms1.TotalAlloc-ms0.TotalAlloc) / int64(d),
		allocs: int64(ms1.Mallocs-ms0.Mallocs) / int64(d)}
	b.ReportMetric(float64(c.cpu.Microseconds())/1e3, "cpu-ms/op")
	return c
}

// goal prints a goal, the measured figures and whether it was met. Wall
// times on a busy machine are not the machine's: read the CPU figure too.
func (c cost) goal(what string, met bool, format string, args ...any) {
	word := "met"
	if !met {
		word = "NOT met"
	}
	fmt.Printf("goal: %s: %s: %s\n", what, fmt.Sprintf(format, args...), word)
}

func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func ms(d time.Duration) string { return fmt.Sprintf("%.1f ms", float64(d.Microseconds())/1e3) }
func mb(n int64) string         { return fmt.Sprintf("%.0f MB", float64(n)/1e6) }

// countHostSteps is the number of host-steps a run went through, skipped
// ones included.
func countHostSteps(out *apply.Outcome) int {
	n := 0
	for _, t := range out.Hosts {
		n += t.OK + t.Changed + t.Failed + t.Skipped + t.Unreachable + t.Warned
	}
	return n
}

func writeScale(tb testing.TB, steps, hosts int) (string, string) {
	tb.Helper()
	dir := tb.TempDir()
	rbPath := filepath.Join(dir, "scale.hcl")
	invPath := filepath.Join(dir, "inventory.hcl")
	if err := os.WriteFile(rbPath, []byte(benchfanout.ScaleRunbook(steps)), 0o600); err != nil {
		tb.Fatal(err)
	}
	if err := os.WriteFile(invPath, []byte(benchfanout.ScaleInventory(hosts)), 0o600); err != nil {
		tb.Fatal(err)
	}
	return rbPath, invPath
}

func mustLoad(tb testing.TB, path string) *config.Runbook {
	rb, diags := config.Load(path)
	if diags.HasErrors() {
		tb.Fatal(diags)
	}
	return rb
}

func mustBind(tb testing.TB, rb *config.Runbook, reg *module.Registry) *program.Program {
	prog, diags := program.Bind(rb, reg)
	if diags.HasErrors() {
		tb.Fatal(diags)
	}
	return prog
}

func mustInventory(tb testing.TB, path string) *inventory.Inventory {
	inv, diags := inventory.Load(path)
	if diags.HasErrors() {
		tb.Fatal(diags)
	}
	return inv
}

// mustScope resolves variables and locals and builds the scope, as the
// CLI's prepare does.
func mustScope(tb testing.TB, rb *config.Runbook, prog *program.Program, inv *inventory.Inventory) *eval.Scope {
	vars, diags := eval.ResolveVariables(rb, eval.Inputs{})
	if diags.HasErrors() {
		tb.Fatal(diags)
	}
	hosts := make([]eval.HostInfo, 0, len(inv.Hosts))
	for _, h := range inv.Hosts {
		hosts = append(hosts, eval.HostInfo{Name: h.Name, Address: h.Address, Groups: h.Groups, Vars: h.Vars})
	}
	groups := map[string][]string{}
	for name, g := range inv.Groups {
		groups[name] = g.Hosts
	}
	scope := eval.NewScope(vars.Values, hosts, groups, rb.BaseDir, prog.ResultTypes())
	locals, diags := eval.EvalLocals(rb, scope.Base())
	if diags.HasErrors() {
		tb.Fatal(diags)
	}
	scope.Locals = locals
	return scope
}

// run plans or applies prog with instant fake hosts and fails on a failed
// outcome: every step must have planned or run on its hosts.
func run(tb testing.TB, prog *program.Program, scope *eval.Scope, inv *inventory.Inventory, mode apply.Mode) *apply.Outcome {
	tb.Helper()
	hosts := map[string]module.Host{}
	for _, h := range inv.Hosts {
		hosts[h.Name] = instantHost(h.Name)
	}
	r := apply.New(prog, scope, inv, apply.Options{Mode: mode, Forks: apply.DefaultForks,
		Host: func(name string) module.Host { return hosts[name] }})
	out, err := r.Run(context.Background())
	if err != nil {
		tb.Fatal(err)
	}
	if out.Failed || len(out.Diagnostics) > 0 {
		tb.Fatalf("%s failed: %v", mode, out.Diagnostics)
	}
	return out
}

// instantHost answers every command at once: exit 1 for guards (test -e,
// so plan says the step will run), exit 0 for everything else.
type instantHost string

func (h instantHost) Name() string { return string(h) }

func (h instantHost) Run(_ context.Context, cmd string, _ io.Reader, _, _ io.Writer) (int, error) {
	if strings.HasPrefix(cmd, "test -e ") {
		return 1, nil
	}
	return 0, nil
}

func (h instantHost) Put(context.Context, string, io.Reader, fs.FileMode) error { return nil }
func (h instantHost) Get(context.Context, string, io.Writer) error              { return nil }
