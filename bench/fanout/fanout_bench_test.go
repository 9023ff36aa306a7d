package benchfanout_test

import (
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/provadev/prova/bench/fanout"
)

// BenchmarkFanout runs the 10-step workload (BENCHFANOUT_STEPS, a
// comma-separated list of step counts, sets others: every tool runs each)
// on N = 10, 50 and 200 hosts (BENCHFANOUT_HOSTS="10,50,200") with every tool (BENCHFANOUT_TOOLS, a
// comma-separated subset of floor, floor-lockstep, prova, prova-free, prova-baseline,
// openssh, ansible-raw, ansible-command), each as a child process against
// real sshd on loopback, and prints the table and the goals. The floor
// and prova's variants run in paired rounds (runTools), at least
// BENCHFANOUT_ROUNDS of them (default 5), and the goals' ratios are the
// medians of the rounds' ratios with their range.
// BENCHFANOUT_PROVA names a prebuilt prova binary (default: go build into a
// temp dir); BENCHFANOUT_PROVA_BASELINE another one to compare it with
// (its rows are skipped without it); BENCHFANOUT_MARKDOWN
// names a file to write the Markdown table and headlines to. With two or
// more host counts and step counts it also prints each tool's CPU fitted
// as a + b·N + c·N·steps (benchfanout.Fit). Missing
// ansible-playbook skips its rows; it never fails the benchmark.
func BenchmarkFanout(b *testing.B) {
	if !haveSSHD() {
		b.Skip("sshd not installed")
	}
	sizes, err := parseSizes(os.Getenv("BENCHFANOUT_HOSTS"))
	if err != nil {
		b.Fatal(err)
	}
	ctx := b.Context()
	lab := benchfanout.StartLab(b)
	bins, err := benchfanout.Build(ctx, b.TempDir(), os.Getenv("BENCHFANOUT_PROVA"))
	if err != nil {
		b.Fatal(err)
	}
	if p := os.Getenv("BENCHFANOUT_PROVA_BASELINE"); p != "" {
		if _, err := os.Stat(p); err != nil {
			b.Fatalf("BENCHFANOUT_PROVA_BASELINE: %v", err)
		}
		bins.ProvaBaseline = p
	}
	// The floor comes first: the warm-up below runs it.
	tools := selectTools(benchfanout.Tools(bins), os.Getenv("BENCHFANOUT_TOOLS"))
	if len(tools) == 0 || tools[0].Name != benchfanout.Floor {
		b.Fatal("BENCHFANOUT_TOOLS must include floor: every ratio is to it")
	}
	stepCounts, err := benchfanout.ParseSteps(os.Getenv("BENCHFANOUT_STEPS"))
	if err != nil {
		b.Fatal(err)
	}
	var rows []benchfanout.Row
	for _, n := range sizes {
		for _, steps := range stepCounts {
			w := workloadSteps(b, lab, n, steps)
			// One unmeasured floor run warms sshd and the page cache.
			if _, err := w.Run(ctx, tools[0]); err != nil {
				b.Fatal(err)
			}
			rows = append(rows, runTools(b, w, tools)...)
		}
	}
	fmt.Printf("\nfan-out, %s commands per host (%s), %d CPUs:\n%s\n", stepList(stepCounts),
		benchfanout.RemoteCommand, runtime.NumCPU(), benchfanout.Text(rows))
	if split := benchfanout.SplitText(rows); split != "" {
		fmt.Printf("resident set at its largest sample (anonymous, mapped files), MiB:\n%s\n", split)
	}
	heads := append(benchfanout.Headlines(rows), benchfanout.Goals(rows)...)
	heads = append(heads, benchfanout.BarrierSplit(rows)...)
	fmt.Println(strings.Join(heads, "\n"))
	fits := costFits(rows, tools)
	if fits != "" {
		fmt.Println(fits)
	}
	if path := os.Getenv("BENCHFANOUT_MARKDOWN"); path != "" {
		text := benchfanout.Markdown(rows) + "\n" + "- " + strings.Join(heads, "\n- ") + "\n"
		if split := benchfanout.SplitText(rows); split != "" {
			text += "\nResident set at its largest sample (MiB):\n\n```\n" + split + "```\n"
		}
		if fits != "" {
			text += "\n```\n" + fits + "```\n"
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			b.Fatal(err)
		}
	}
}

// runTools measures every tool on w. The paired tools (benchfanout.Paired:
// the floor, the lockstep floor and prova's variants) run in rounds, one
// sub-benchmark hosts=N/paired: each round runs each of them once, in an
// order rotated every round (benchfanout.RoundOrder), so that the goals
// compare prova with the floor round by round rather than a mean of
// prova's runs with a mean of the floor's taken minutes apart. There are
// as many rounds as the benchmark's time asks and at least
// BENCHFANOUT_ROUNDS (default 5). The references (OpenSSH, Ansible) then
// run one sub-benchmark each, hosts=N/tool. Other workloads than the
// default add ",steps=S" to the name.
func runTools(b *testing.B, w *benchfanout.Workload, tools []benchfanout.Tool) []benchfanout.Row {
	ctx := b.Context()
	n := len(w.Hosts)
	name := fmt.Sprintf("hosts=%d", n)
	if w.Steps != benchfanout.Steps {
		name += fmt.Sprintf(",steps=%d", w.Steps)
	}
	minRounds, err := parseRounds(os.Getenv("BENCHFANOUT_ROUNDS"))
	if err != nil {
		b.Fatal(err)
	}
	var paired []benchfanout.Tool
	rowOf := map[string]*benchfanout.Row{}
	var rows []*benchfanout.Row
	for _, tool := range tools {
		row := &benchfanout.Row{Hosts: n, Steps: w.Steps, Tool: tool.Name, Skipped: tool.Missing}
		rows = append(rows, row)
		rowOf[tool.Name] = row
		if benchfanout.Paired(tool.Name) && tool.Missing == "" {
			row.Paired = true
			paired = append(paired, tool)
		}
	}
	if len(paired) > 0 {
		b.Run(name+"/paired", func(b *testing.B) {
			samples := make([][]benchfanout.Usage, len(paired))
			round := func(r int) {
				for _, j := range benchfanout.RoundOrder(len(paired), r) {
					u, err := w.Run(ctx, paired[j])
					if err != nil {
						rowOf[paired[j].Name].Skipped = "failed: " + firstLine(err.Error())
						b.Fatal(err)
					}
					samples[j] = append(samples[j], u)
				}
			}
			r := 0
			for b.Loop() {
				round(r)
				r++
			}
			// The benchmark's own timing ends with b.Loop; the figures
			// reported are the runs' own, so the rounds still missing
			// for a median run after it.
			for ; r < minRounds; r++ {
				round(r)
			}
			for j, tool := range paired {
				row := rowOf[tool.Name]
				m := benchfanout.Mean(samples[j])
				row.Runs, row.Usage, row.Samples = len(samples[j]), m, samples[j]
				reportUsage(b, tool.Name+"-", m)
			}
			f := rowOf[benchfanout.Floor]
			for _, t := range []string{benchfanout.Prova, benchfanout.ProvaBaseline} {
				if row, ok := rowOf[t]; ok && row.Paired && f != nil {
					if c, ok := benchfanout.PairedRatio(*row, *f, benchfanout.Usage.CPU); ok {
						b.ReportMetric(c.Median, t+"/floor-cpu")
					}
					if wr, ok := benchfanout.PairedRatio(*row, *f, func(u benchfanout.Usage) time.Duration { return u.Wall }); ok {
						b.ReportMetric(wr.Median, t+"/floor-wall")
					}
				}
			}
		})
	}
	for _, tool := range tools {
		if benchfanout.Paired(tool.Name) {
			continue
		}
		row := rowOf[tool.Name]
		b.Run(name+"/"+tool.Name, func(b *testing.B) {
			if tool.Missing != "" {
				b.Skip(tool.Missing)
			}
			var us []benchfanout.Usage
			for b.Loop() {
				u, err := w.Run(ctx, tool)
				if err != nil {
					row.Skipped = "failed: " + firstLine(err.Error())
					b.Fatal(err)
				}
				us = append(us, u)
			}
			m := benchfanout.Mean(us)
			row.Runs, row.Usage, row.Samples = len(us), m, us
			reportUsage(b, "", m)
		})
	}
	out := make([]benchfanout.Row, len(rows))
	for i, r := range rows {
		out[i] = *r
	}
	return out
}

// reportUsage reports a tool's mean figures, each unit prefixed with
// prefix (the tool's name in the paired sub-benchmark, which reports
// every paired tool).
func reportUsage(b *testing.B, prefix string, m benchfanout.Usage) {
	b.ReportMetric(m.Wall.Seconds(), prefix+"wall-s/op")
	b.ReportMetric(m.CPU().Seconds(), prefix+"cpu-s/op")
	b.ReportMetric(m.User.Seconds(), prefix+"user-s/op")
	b.ReportMetric(m.Sys.Seconds(), prefix+"sys-s/op")
	b.ReportMetric(float64(m.VolCS), prefix+"vcsw/op")
	b.ReportMetric(float64(m.InvolCS), prefix+"ivcsw/op")
	b.ReportMetric(float64(m.MaxRSS)/(1<<20), prefix+"peak-MiB")
	if m.TreePSS > 0 {
		b.ReportMetric(float64(m.TreePSS)/(1<<20), prefix+"pss-MiB")
	}
	if m.Split.Samples > 0 {
		b.ReportMetric(float64(m.Split.Anon)/(1<<20), prefix+"peak-anon-MiB")
		b.ReportMetric(float64(m.Split.File)/(1<<20), prefix+"peak-file-MiB")
	}
}

// parseRounds reads BENCHFANOUT_ROUNDS, the fewest paired rounds at each
// N: "" is 5.
func parseRounds(s string) (int, error) {
	if strings.TrimSpace(s) == "" {
		return 5, nil
	}
	n, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil || n < 1 || n > 1000 {
		return 0, fmt.Errorf("BENCHFANOUT_ROUNDS: %q is not a round count from 1 to 1000", s)
	}
	return n, nil
}

// costFits is every tool's CPU split into per run, per host and per
// host-step (benchfanout.Fit), the floor first; "" when the step counts
// and host counts do not separate them.
func costFits(rows []benchfanout.Row, tools []benchfanout.Tool) string {
	var fits []benchfanout.CostFit
	for _, t := range tools {
		if f, err := benchfanout.Fit(rows, t.Name); err == nil {
			fits = append(fits, f)
		}
	}
	if len(fits) == 0 {
		return ""
	}
	return benchfanout.FitText(fits)
}

func stepList(steps []int) string {
	s := make([]string, len(steps))
	for i, n := range steps {
		s[i] = strconv.Itoa(n)
	}
	return strings.Join(s, ", ")
}

func workloadSteps(b *testing.B, lab *benchfanout.Lab, n, steps int) *benchfanout.Workload {
	b.Helper()
	hosts, err := lab.Hosts(n)
	if err != nil {
		b.Fatal(err)
	}
	// Control sockets need a short path (at most 107 bytes).
	ctl, err := os.MkdirTemp("", "bf")
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { os.RemoveAll(ctl) })
	w, err := benchfanout.NewWorkload(lab, hosts, steps, b.TempDir(), ctl)
	if err != nil {
		b.Fatal(err)
	}
	return w
}

func haveSSHD() bool {
	if _, err := exec.LookPath("sshd"); err == nil {
		return true
	}
	_, err := os.Stat("/usr/sbin/sshd")
	return err == nil
}

func parseSizes(s string) ([]int, error) {
	if s == "" {
		return []int{10, 50, 200}, nil
	}
	var out []int
	for _, f := range strings.Split(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 1 || n > benchfanout.MaxHosts {
			return nil, fmt.Errorf("BENCHFANOUT_HOSTS: %q is not a host count from 1 to %d", f, benchfanout.MaxHosts)
		}
		out = append(out, n)
	}
	return out, nil
}

func selectTools(all []benchfanout.Tool, names string) []benchfanout.Tool {
	if names == "" {
		return all
	}
	want := map[string]bool{}
	for _, n := range strings.Split(names, ",") {
		want[strings.TrimSpace(n)] = true
	}
	var out []benchfanout.Tool
	for _, t := range all {
		if want[t.Name] {
			out = append(out, t)
		}
	}
	return out
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}
