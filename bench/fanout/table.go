package benchfanout

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Row is one tool at one N: the mean of its runs (peaks are maxima).
type Row struct {
	Hosts int
	// Steps is the commands per host (0: the default, Steps).
	Steps int
	Tool  string
	Runs  int
	Usage Usage
	// Samples are the runs Usage is the mean of (for Fit; may be nil).
	Samples []Usage
	// Paired is set when Samples[i] was taken in round i of the paired
	// rounds at this N (RoundOrder), as every other paired row's: the
	// goals then compare the rows round by round (PairedRatio).
	Paired bool
	// Skipped says why the tool did not run ("" when it ran).
	Skipped string
}

// Mean averages wall and CPU times over us and keeps the largest peaks
// (the resident set's split of the run whose sampled peak was largest).
func Mean(us []Usage) Usage {
	var m Usage
	if len(us) == 0 {
		return m
	}
	for _, u := range us {
		m.Wall += u.Wall
		m.User += u.User
		m.Sys += u.Sys
		m.VolCS += u.VolCS
		m.InvolCS += u.InvolCS
		m.MaxRSS = max(m.MaxRSS, u.MaxRSS)
		m.TreePSS = max(m.TreePSS, u.TreePSS)
		if u.Split.RSS > m.Split.RSS {
			maxAnon, samples := m.Split.MaxAnon, m.Split.Samples
			m.Split = u.Split
			m.Split.MaxAnon, m.Split.Samples = maxAnon, samples
		}
		m.Split.MaxAnon = max(m.Split.MaxAnon, u.Split.MaxAnon)
		m.Split.Samples += u.Split.Samples
	}
	n := time.Duration(len(us))
	m.Wall, m.User, m.Sys = m.Wall/n, m.User/n, m.Sys/n
	m.VolCS, m.InvolCS = m.VolCS/int64(n), m.InvolCS/int64(n)
	return m
}

// StepCount is the row's commands per host.
func (r Row) StepCount() int {
	if r.Steps == 0 {
		return Steps
	}
	return r.Steps
}

// Ratio returns the wall time of tool at hosts divided by that of base at
// the same N, on the default workload (Steps commands per host), and false
// when either did not run.
func Ratio(rows []Row, hosts int, tool, base string) (float64, bool) {
	return ratioAt(rows, hosts, Steps, tool, base)
}

func ratioAt(rows []Row, hosts, steps int, tool, base string) (float64, bool) {
	t, ok1 := findAt(rows, hosts, steps, tool)
	b, ok2 := findAt(rows, hosts, steps, base)
	if !ok1 || !ok2 || b.Usage.Wall <= 0 {
		return 0, false
	}
	return t.Usage.Wall.Seconds() / b.Usage.Wall.Seconds(), true
}

// find is tool's row at hosts on the default workload: the goals' and
// headlines' figures are of that one.
func find(rows []Row, hosts int, tool string) (Row, bool) {
	return findAt(rows, hosts, Steps, tool)
}

func findAt(rows []Row, hosts, steps int, tool string) (Row, bool) {
	for _, r := range rows {
		if r.Hosts == hosts && r.StepCount() == steps && r.Tool == tool && r.Skipped == "" && r.Runs > 0 {
			return r, true
		}
	}
	return Row{}, false
}

const mib = 1 << 20

// Markdown renders rows as a Markdown table, in the order given.
func Markdown(rows []Row) string {
	var b strings.Builder
	steps := otherSteps(rows)
	head, rule, stepCell := "| N |", "|--:|", func(Row) string { return "" }
	if steps {
		head, rule = "| N | steps |", "|--:|--:|"
		stepCell = func(r Row) string { return fmt.Sprintf(" %d |", r.StepCount()) }
	}
	b.WriteString(head + " tool | runs | wall s | CPU s | CPU ms per host-step | peak RSS MiB (largest process) | PSS MiB (all processes) | wall / floor |\n")
	b.WriteString(rule + "---|--:|--:|--:|--:|--:|--:|--:|\n")
	for _, r := range rows {
		if r.Skipped != "" {
			fmt.Fprintf(&b, "| %d |%s %s | 0 | skipped: %s | | | | | |\n", r.Hosts, stepCell(r), r.Tool, r.Skipped)
			continue
		}
		c := cells(rows, r)
		fmt.Fprintf(&b, "| %d |%s %s | %d | %s | %s | %s | %s | %s | %s |\n", r.Hosts, stepCell(r), r.Tool, r.Runs,
			c.wall, c.cpu, c.perStep, c.rss, c.pss, c.ratio)
	}
	return b.String()
}

// otherSteps reports whether some row has another step count than the
// default: the tables then have a steps column (without one they are
// what they were before step counts could be set).
func otherSteps(rows []Row) bool {
	for _, r := range rows {
		if r.StepCount() != Steps {
			return true
		}
	}
	return false
}

// Text renders rows as an aligned plain-text table.
func Text(rows []Row) string {
	var b strings.Builder
	steps := otherSteps(rows)
	n := func(r Row) string { return fmt.Sprintf("%5d", r.Hosts) }
	nHead := fmt.Sprintf("%5s", "N")
	if steps {
		n = func(r Row) string { return fmt.Sprintf("%5d %5d", r.Hosts, r.StepCount()) }
		nHead = fmt.Sprintf("%5s %5s", "N", "steps")
	}
	fmt.Fprintf(&b, "%s  %-16s %4s %8s %8s %10s %9s %9s %8s\n", nHead, "tool", "runs", "wall s", "CPU s", "CPU ms/hs", "peak MiB", "PSS MiB", "÷ floor")
	for _, r := range rows {
		if r.Skipped != "" {
			fmt.Fprintf(&b, "%s  %-16s skipped: %s\n", n(r), r.Tool, r.Skipped)
			continue
		}
		c := cells(rows, r)
		fmt.Fprintf(&b, "%s  %-16s %4d %8s %8s %10s %9s %9s %8s\n", n(r), r.Tool, r.Runs,
			c.wall, c.cpu, c.perStep, c.rss, c.pss, c.ratio)
	}
	return b.String()
}

type rowCells struct{ wall, cpu, perStep, rss, pss, ratio string }

func cells(rows []Row, r Row) rowCells {
	c := rowCells{
		wall:    fmt.Sprintf("%.2f", r.Usage.Wall.Seconds()),
		cpu:     fmt.Sprintf("%.2f", r.Usage.CPU().Seconds()),
		perStep: "-",
		rss:     fmt.Sprintf("%.1f", float64(r.Usage.MaxRSS)/mib),
		pss:     "-",
		ratio:   "-",
	}
	if r.Hosts > 0 {
		ms := r.Usage.CPU().Seconds() * 1000 / float64(r.Hosts*r.StepCount())
		c.perStep = fmt.Sprintf("%.2f", ms)
	}
	if r.Usage.TreePSS > 0 {
		c.pss = fmt.Sprintf("%.1f", float64(r.Usage.TreePSS)/mib)
	}
	if x, ok := ratioAt(rows, r.Hosts, r.StepCount(), r.Tool, Floor); ok {
		c.ratio = fmt.Sprintf("%.2fx", x)
	}
	return c
}

// Headlines states the targets' figures on the default workload: prova
// against the floor at every N, the tuned Ansible runs against prova, and prova's peak memory at the
// largest N.
func Headlines(rows []Row) []string {
	var out []string
	for _, n := range hostCounts(rows) {
		var parts []string
		if x, ok := Ratio(rows, n, Prova, Floor); ok {
			parts = append(parts, fmt.Sprintf("prova %.2fx the floor's wall time", x))
		}
		if x, ok := Ratio(rows, n, Prova, FloorLockstep); ok {
			parts = append(parts, fmt.Sprintf("%.2fx the lockstep floor's", x))
		}
		for _, t := range []string{OpenSSH, AnsibleRaw, AnsibleCommand} {
			if x, ok := Ratio(rows, n, t, Prova); ok {
				parts = append(parts, fmt.Sprintf("%s %.1fx prova's", t, x))
			}
		}
		if p, ok := find(rows, n, Prova); ok {
			parts = append(parts, fmt.Sprintf("prova peak RSS %.1f MiB", float64(p.Usage.MaxRSS)/mib))
		}
		out = append(out, fmt.Sprintf("N=%d: %s", n, strings.Join(parts, "; ")))
	}
	return out
}

// Fan-out goals (issue 15): prova's client CPU per host-step and wall time
// against the floor's at every N, and its peak RSS at 200 hosts.
const (
	GoalCPURatio  = 1.2
	GoalWallRatio = 1.1
	GoalRSSHosts  = 200
	GoalRSSMB     = 40
)

// Goals states the fan-out goals next to the measured figures, one line
// per goal, each ending in "met" or "NOT met"; with a baseline prova in
// the rows, its figures too (in parentheses: the goal is prova's). The
// CPU and wall ratios of paired rows are medians over the rounds with
// their range (PairedRatio); "met" reads the median.
func Goals(rows []Row) []string {
	var out []string
	var cpu, wall []string
	cpuMet, wallMet := true, true
	for _, n := range hostCounts(rows) {
		p, ok1 := find(rows, n, Prova)
		f, ok2 := find(rows, n, Floor)
		if !ok1 || !ok2 || f.Usage.CPU() <= 0 || f.Usage.Wall <= 0 {
			continue
		}
		c, ctext := ratioCell(p, f, cpuOf)
		w, wtext := ratioCell(p, f, wallOf)
		cpuMet = cpuMet && c <= GoalCPURatio
		wallMet = wallMet && w <= GoalWallRatio
		cell := fmt.Sprintf("N=%d %s", n, ctext)
		wcell := fmt.Sprintf("N=%d %s", n, wtext)
		if bl, ok := find(rows, n, ProvaBaseline); ok {
			_, bc := ratioCell(bl, f, cpuOf)
			_, bw := ratioCell(bl, f, wallOf)
			cell += fmt.Sprintf(" (baseline %s)", bc)
			wcell += fmt.Sprintf(" (baseline %s)", bw)
		}
		cpu = append(cpu, cell)
		wall = append(wall, wcell)
	}
	if len(cpu) > 0 {
		out = append(out,
			fmt.Sprintf("goal: prova client CPU <= %.1fx the floor's: %s: %s", GoalCPURatio, strings.Join(cpu, ", "), metWord(cpuMet)),
			fmt.Sprintf("goal: prova wall <= %.1fx the floor's: %s: %s", GoalWallRatio, strings.Join(wall, ", "), metWord(wallMet)))
	}
	if p, ok := find(rows, GoalRSSHosts, Prova); ok {
		// The goal is in MB (10^6 bytes), the table in MiB: the line
		// gives both, so that it reads against the table's column.
		mb := float64(p.Usage.MaxRSS) / 1e6
		var ref []string
		if bl, ok := find(rows, GoalRSSHosts, ProvaBaseline); ok {
			ref = append(ref, fmt.Sprintf("baseline %.1f MB", float64(bl.Usage.MaxRSS)/1e6))
		}
		if f, ok := find(rows, GoalRSSHosts, Floor); ok {
			ref = append(ref, fmt.Sprintf("floor %.1f MB", float64(f.Usage.MaxRSS)/1e6))
		}
		refs := ""
		if len(ref) > 0 {
			refs = " (" + strings.Join(ref, "; ") + ")"
		}
		out = append(out, fmt.Sprintf("goal: prova peak RSS <= %d MB at N=%d: %.1f MB = %.1f MiB%s: %s",
			GoalRSSMB, GoalRSSHosts, mb, float64(p.Usage.MaxRSS)/mib, refs, metWord(mb <= GoalRSSMB)))
		if sp := p.Usage.Split; sp.Samples > 0 {
			out = append(out, fmt.Sprintf("prova's peak at N=%d, sampled: %.1f MiB anonymous + %.1f MiB of mapped files (its binary) at %.0f %% of the run",
				GoalRSSHosts, float64(sp.Anon)/mib, float64(sp.File)/mib, sp.At*100))
		}
	}
	return out
}

// BarrierSplit states, at every N, the client CPU against the floor's of
// prova, of prova with --strategy free (no barrier after each step, as
// the floor runs) and of the lockstep floor (the floor with prova's
// barrier): how much of prova's excess is the linear strategy's barrier
// and how much the engine. Nothing without a prova-free row.
func BarrierSplit(rows []Row) []string {
	var out []string
	for _, n := range hostCounts(rows) {
		f, ok := find(rows, n, Floor)
		if _, free := find(rows, n, ProvaFree); !ok || !free || f.Usage.CPU() <= 0 {
			continue
		}
		var parts []string
		for _, t := range []string{Prova, ProvaFree, FloorLockstep} {
			if r, ok := find(rows, n, t); ok {
				_, text := ratioCell(r, f, cpuOf)
				parts = append(parts, t+" "+text)
			}
		}
		out = append(out, fmt.Sprintf("barrier split, client CPU / the floor's at N=%d: %s", n, strings.Join(parts, ", ")))
	}
	return out
}

// hostCounts are the Ns of the default workload's rows, in order.
func hostCounts(rows []Row) []int {
	var ns []int
	for _, r := range rows {
		if r.StepCount() != Steps {
			continue
		}
		if len(ns) == 0 || ns[len(ns)-1] != r.Hosts {
			ns = append(ns, r.Hosts)
		}
	}
	return ns
}

func metWord(ok bool) string {
	if ok {
		return "met"
	}
	return "NOT met"
}

// SplitText is the resident-set split of every row that has one (RSSSplit):
// the kernel's peak, then the largest sample's anonymous and file-backed
// parts, when in the run it was, and the largest anonymous sample, in MiB.
func SplitText(rows []Row) string {
	var b strings.Builder
	for _, r := range rows {
		sp := r.Usage.Split
		if r.Skipped != "" || sp.Samples == 0 {
			continue
		}
		if b.Len() == 0 {
			fmt.Fprintf(&b, "%-14s  %-16s %9s %9s %9s %9s %6s %9s\n", "N", "tool", "peak-MiB", "at-peak", "anon", "file", "when", "max-anon")
		}
		name := strconv.Itoa(r.Hosts)
		if r.StepCount() != Steps {
			name += fmt.Sprintf(",steps=%d", r.StepCount())
		}
		fmt.Fprintf(&b, "%-14s  %-16s %9.1f %9.1f %9.1f %9.1f %5.0f%% %9.1f\n", name, r.Tool,
			float64(r.Usage.MaxRSS)/mib, float64(sp.RSS)/mib, float64(sp.Anon)/mib, float64(sp.File)/mib, sp.At*100, float64(sp.MaxAnon)/mib)
	}
	return b.String()
}
