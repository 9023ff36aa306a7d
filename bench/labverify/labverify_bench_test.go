package labverify

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	benchfanout "github.com/provadev/prova/bench/fanout"
)

// Figures are one run's measurements.
type Figures struct {
	Nodes       int
	Wall        time.Duration
	ProvaCPU    time.Duration // user + system, children included
	LabCPU      time.Duration // the lab server over the apply
	PeakRSS     int64         // bytes, prova's ru_maxrss
	RecordBytes int64
	// RunJSON, Events and Raw split RecordBytes: run.json, the trail
	// (events.jsonl or events.jsonl.gz) and the raw blobs.
	RunJSON, Events, Raw int64
	// RawBy splits Raw by the command (evidence name) a blob was stored
	// for, largest first; a blob stored for two names counts once, for
	// the first seen.
	RawBy        []CommandBytes
	ConsoleLines int
	ExitCode     int
}

// CommandBytes is the stored size of one command's raw blobs.
type CommandBytes struct {
	Command string
	Bytes   int64
	Blobs   int
}

// Markdown is one table row.
func (f Figures) Markdown() string {
	return fmt.Sprintf("| %d | %s | %.1f | %.1f | %.0f | %.1f | %d |", f.Nodes, f.Wall.Round(time.Second),
		f.ProvaCPU.Seconds(), f.LabCPU.Seconds(), float64(f.PeakRSS)/(1<<20), float64(f.RecordBytes)/1e6, f.ConsoleLines)
}

// The goals of the 1,000-node verify (issue 13), for the goal lines make
// bench prints at its end.
const (
	GoalWall         = 10 * time.Minute
	GoalRecordBytes  = 100e6
	GoalPeakRSS      = 400e6
	GoalConsoleLines = 80
)

// Goals are the goal lines of one run: the figure and met or NOT met. The
// wall goal ("well under") is judged against GoalWall; on a shared machine
// it says little.
func (f Figures) Goals() []string {
	word := func(ok bool) string {
		if ok {
			return "met"
		}
		return "NOT met"
	}
	n := fmt.Sprintf("%d-node verify", f.Nodes)
	return []string{
		fmt.Sprintf("goal: %s wall well under %s: %s: %s", n, GoalWall, f.Wall.Round(time.Second), word(f.Wall < GoalWall)),
		fmt.Sprintf("goal: %s record <= 100 MB: %.1f MB: %s", n, float64(f.RecordBytes)/1e6, word(f.RecordBytes <= GoalRecordBytes)),
		fmt.Sprintf("goal: %s prova peak RSS <= 400 MB: %.0f MB: %s", n, float64(f.PeakRSS)/1e6, word(f.PeakRSS <= GoalPeakRSS)),
		fmt.Sprintf("goal: %s console <= %d lines: %d: %s", n, GoalConsoleLines, f.ConsoleLines, word(f.ConsoleLines <= GoalConsoleLines)),
	}
}

func BenchmarkLabVerify(b *testing.B) {
	if os.Geteuid() != 0 && os.Getenv("CI") != "true" {
		b.Skip("the lab's mount namespaces need root here (see docs/lab.md)")
	}
	nodes := 1000
	if s := os.Getenv("BENCHLAB_NODES"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 5 {
			b.Fatalf("BENCHLAB_NODES=%q: want a number of at least 5", s)
		}
		nodes = n
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	prova := os.Getenv("BENCHLAB_PROVA")
	if prova == "" {
		prova = filepath.Join(b.TempDir(), "prova")
		if err := benchfanout.GoBuild(ctx, prova, "github.com/provadev/prova/cmd/prova"); err != nil {
			b.Fatal(err)
		}
	}
	for b.Loop() {
		b.StopTimer()
		f := runOnce(b, ctx, prova, root, nodes)
		b.StartTimer()
		b.ReportMetric(f.Wall.Seconds(), "wall-s")
		b.ReportMetric(f.ProvaCPU.Seconds(), "prova-cpu-s")
		b.ReportMetric(f.LabCPU.Seconds(), "lab-cpu-s")
		b.ReportMetric(float64(f.PeakRSS)/(1<<20), "peak-rss-MiB")
		b.ReportMetric(float64(f.RecordBytes)/1e6, "record-MB")
		b.ReportMetric(float64(f.RunJSON)/1e6, "run.json-MB")
		b.ReportMetric(float64(f.Events)/1e6, "events-MB")
		b.ReportMetric(float64(f.Raw)/1e6, "raw-MB")
		b.ReportMetric(float64(f.ConsoleLines), "console-lines")
		row := f.Markdown()
		b.Log("| nodes | wall | prova CPU s | lab CPU s | prova peak RSS MiB | record MB | console lines |\n" + row)
		by := fmt.Sprintf("record %.1f MB: run.json %.2f, trail %.2f, raw %.1f", float64(f.RecordBytes)/1e6, float64(f.RunJSON)/1e6, float64(f.Events)/1e6, float64(f.Raw)/1e6)
		for _, c := range f.RawBy {
			by += fmt.Sprintf("\n  raw %-40s %8.1f MB in %d blobs", c.Command, float64(c.Bytes)/1e6, c.Blobs)
		}
		b.Log(by)
		for _, g := range f.Goals() {
			fmt.Println(g)
		}
		if p := os.Getenv("BENCHLAB_MARKDOWN"); p != "" {
			if err := os.WriteFile(p, []byte(row+"\n"), 0o644); err != nil {
				b.Fatal(err)
			}
		}
	}
}

func runOnce(b *testing.B, ctx context.Context, prova, root string, nodes int) Figures {
	work := b.TempDir()
	labDir := filepath.Join(work, "lab")
	sc := filepath.Join(root, "examples", "lab", "gpfs-firewall.hcl")
	run := func(name string, args ...string) string {
		cmd := exec.CommandContext(ctx, name, args...)
		cmd.Dir = work
		out, err := cmd.CombinedOutput()
		if err != nil {
			b.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	run(prova, "lab", "up", "--dir", labDir, "--nodes", strconv.Itoa(nodes), "--scenario", sc, "--timeout", "5m")
	b.Cleanup(func() { exec.Command(prova, "lab", "down", "--dir", labDir).Run() })
	// The verify runbook proves a configured cluster: enable verbsRdma and
	// restart every daemon first, as gpfs-verbs-rdma.hcl would.
	for _, c := range []string{`mmchconfig verbsRdma=enable,verbsPorts="mlx5_0/1 mlx5_1/1"`, "mmshutdown -a", "mmstartup -a"} {
		run("ssh", "-F", filepath.Join(labDir, "ssh_config"), "gpfs01", c)
	}
	pidB, err := os.ReadFile(filepath.Join(labDir, "serve.pid"))
	if err != nil {
		b.Fatal(err)
	}
	labPID, err := strconv.Atoi(strings.TrimSpace(string(pidB)))
	if err != nil {
		b.Fatalf("serve.pid: %v", err)
	}
	cpu0 := procCPU(b, labPID)
	args := []string{"apply", filepath.Join(root, "runbooks", "gpfs-verbs-verify.hcl"), "-i", filepath.Join(labDir, "inventory.hcl"),
		"--var", `verbs_ports=["mlx5_0/1","mlx5_1/1"]`, "--color", "never"}
	if v := os.Getenv("BENCHLAB_VARS"); v != "" { // e.g. "settle_retries=2 settle_delay=3s"
		for _, kv := range strings.Fields(v) {
			args = append(args, "--var", kv)
		}
	}
	cmd := exec.CommandContext(ctx, prova, args...)
	cmd.Dir = work
	var console lineCounter
	var errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &console, &errb
	if p := os.Getenv("BENCHLAB_CONSOLE"); p != "" { // keep the whole console
		f, err := os.Create(p)
		if err != nil {
			b.Fatal(err)
		}
		defer f.Close()
		cmd.Stdout = io.MultiWriter(&console, f)
	}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	werr := cmd.Wait()
	f := Figures{Nodes: nodes, Wall: time.Since(start), LabCPU: procCPU(b, labPID) - cpu0, ConsoleLines: console.n}
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		f.ProvaCPU = time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
		f.PeakRSS = ru.Maxrss * 1024
	}
	f.ExitCode = cmd.ProcessState.ExitCode()
	// The scenario has one faulty node: the apply fails (1) and names it.
	if werr != nil && f.ExitCode != 1 {
		b.Fatalf("prova apply: %v (after %s, %d console lines, peak RSS %.0f MiB)\n%s\n%s", werr, f.Wall.Round(time.Second),
			f.ConsoleLines, float64(f.PeakRSS)/(1<<20), console.last(), errb.String())
	}
	if !strings.Contains(console.last(), "gpfs04") {
		b.Errorf("the console's end does not name gpfs04:\n%s", console.last())
	}
	f.RecordBytes, f.RunJSON, f.Events, f.Raw = recordSize(b, filepath.Join(work, ".prova", "runs"))
	f.RawBy = rawByCommand(b, filepath.Join(work, ".prova", "runs"))
	return f
}

// procCPU is a process's user + system time and that of the children it
// waited for, from /proc/PID/stat.
func procCPU(b *testing.B, pid int) time.Duration {
	raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		b.Fatalf("lab server: %v", err)
	}
	s := string(raw)
	fields := strings.Fields(s[strings.LastIndexByte(s, ')')+2:]) // field 3 onwards
	var ticks int64
	for _, i := range []int{11, 12, 13, 14} { // utime stime cutime cstime (fields 14-17)
		n, err := strconv.ParseInt(fields[i], 10, 64)
		if err != nil {
			b.Fatalf("/proc/%d/stat: %v", pid, err)
		}
		ticks += n
	}
	return time.Duration(ticks) * time.Second / 100 // USER_HZ
}

// recordSize is the size of the run records under dir, and of their
// run.json files, trails and raw blobs.
func recordSize(b *testing.B, dir string) (all, runJSON, events, raw int64) {
	err := filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		if !fi.Mode().IsRegular() {
			return nil
		}
		n := fi.Size()
		all += n
		switch name := fi.Name(); {
		case name == "run.json":
			runJSON += n
		case strings.HasPrefix(name, "events.jsonl"):
			events += n
		case strings.Contains(filepath.ToSlash(p), "/raw/"):
			raw += n
		}
		return nil
	})
	if err != nil {
		b.Fatalf("run record: %v", err)
	}
	return all, runJSON, events, raw
}

// rawByCommand reads each run.json under dir (record format 3: steps,
// hosts, raw: evidence name -> blob path) and sums the blobs' stored sizes
// per evidence name.
func rawByCommand(b *testing.B, dir string) []CommandBytes {
	runs, err := filepath.Glob(filepath.Join(dir, "*", "run.json"))
	if err != nil {
		b.Fatal(err)
	}
	sizes := map[string]*CommandBytes{}
	seen := map[string]bool{}
	for _, p := range runs {
		data, err := os.ReadFile(p)
		if err != nil {
			b.Fatal(err)
		}
		var rec struct {
			Steps []struct {
				Hosts map[string]struct {
					Raw map[string]string `json:"raw"`
				} `json:"hosts"`
			} `json:"steps"`
		}
		if err := json.Unmarshal(data, &rec); err != nil {
			b.Fatalf("%s: %v", p, err)
		}
		for _, st := range rec.Steps {
			for _, h := range st.Hosts {
				for name, blob := range h.Raw {
					path := filepath.Join(filepath.Dir(p), filepath.FromSlash(blob))
					if seen[path] {
						continue
					}
					seen[path] = true
					fi, err := os.Stat(path)
					if err != nil {
						continue // not stored (over the raw cap) or not a blob
					}
					c := sizes[name]
					if c == nil {
						c = &CommandBytes{Command: name}
						sizes[name] = c
					}
					c.Bytes += fi.Size()
					c.Blobs++
				}
			}
		}
	}
	out := make([]CommandBytes, 0, len(sizes))
	for _, c := range sizes {
		out = append(out, *c)
	}
	sort.Slice(out, func(i, j int) bool {
		return out[i].Bytes > out[j].Bytes || out[i].Bytes == out[j].Bytes && out[i].Command < out[j].Command
	})
	return out
}

// lineCounter counts lines and keeps the last 40.
type lineCounter struct {
	n    int
	tail []string
	part []byte
}

func (c *lineCounter) Write(p []byte) (int, error) {
	c.part = append(c.part, p...)
	for {
		i := bytes.IndexByte(c.part, '\n')
		if i < 0 {
			break
		}
		c.n++
		c.tail = append(c.tail, string(c.part[:i]))
		if len(c.tail) > 40 {
			c.tail = c.tail[1:]
		}
		c.part = c.part[i+1:]
	}
	c.part = append([]byte(nil), c.part...)
	return len(p), nil
}

func (c *lineCounter) last() string { return strings.Join(c.tail, "\n") }

var _ io.Writer = (*lineCounter)(nil)
