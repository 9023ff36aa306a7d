package report

import (
	"fmt"
	"strings"
	"time"
)

// Helpers shared by the renderers.

// hostList shortens long host lists: "100: a, b, c, d, e, f and 94 more".
func hostList(hosts []string) string {
	const show = 8
	if len(hosts) <= show {
		return fmt.Sprintf("%d: %s", len(hosts), strings.Join(hosts, ", "))
	}
	return fmt.Sprintf("%d: %s and %d more", len(hosts), strings.Join(hosts[:show-2], ", "), len(hosts)-show+2)
}

func (r *Report) runLine() string {
	m := r.Run.Meta
	parts := []string{m.Mode, r.Run.Status}
	if !m.Started.IsZero() {
		parts = append(parts, m.Started.UTC().Format("2006-01-02 15:04:05 UTC"))
	}
	if r.Run.DurationS > 0 {
		parts = append(parts, time.Duration(r.Run.DurationS*float64(time.Second)).Round(time.Second).String())
	}
	return fmt.Sprintf("%s (%s)", m.RunID, strings.Join(nonEmpty(parts), ", "))
}

func withHash(name, hash string) string {
	switch {
	case name == "" && hash == "":
		return "-"
	case hash == "":
		return name
	}
	return fmt.Sprintf("%s (%s)", name, hash)
}

func (r *Report) countsLine() string {
	c := r.Counts
	s := fmt.Sprintf("%d: %d pass, %d fail, %d warn, %d waived", c.Assertions, c.Pass, c.Fail, c.Warn, c.Waived)
	if c.Skipped > 0 {
		s += fmt.Sprintf(", %d skipped", c.Skipped)
	}
	if c.Other > 0 {
		s += fmt.Sprintf(", %d other (unreachable, unfinished)", c.Other)
	}
	return s
}

func (r *Report) verdictLine() string {
	if r.Run.Incomplete {
		return fmt.Sprintf("%s. Up to there: %d failed assertion(s), %d step error(s); steps not reached prove nothing",
			r.Run.IncompleteReason, r.Counts.Fail, r.Counts.StepErrors)
	}
	s := fmt.Sprintf("%d failed assertion(s), %d step error(s)", r.Counts.Fail, r.Counts.StepErrors)
	if r.Counts.Waived > 0 {
		s += fmt.Sprintf(", %d waived", r.Counts.Waived)
	}
	if r.Baseline != nil {
		s += fmt.Sprintf(", %d baseline regression(s)", r.Baseline.Failed)
	}
	return s
}

// failureText is one failed assertion in words.
func failureText(step, name, msg, measured, threshold string) string {
	s := step
	if name != "" && name != step {
		s += " / " + name
	}
	if msg != "" {
		s += ": " + msg
	}
	if measured != "" || threshold != "" {
		s += fmt.Sprintf(" (measured %s, threshold %s)", orDash(measured), orDash(threshold))
	}
	return s
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func nonEmpty(in []string) []string {
	var out []string
	for _, s := range in {
		if s != "" {
			out = append(out, s)
		}
	}
	return out
}

// waiverStatus says what became of a waiver.
func (r *Report) waiverStatus() map[string]string {
	st := map[string]string{}
	if r.Waivers == nil {
		return st
	}
	n := map[string]int{}
	for _, o := range r.Assertions {
		if o.Waiver != nil {
			n[o.Waiver.Name]++
		}
	}
	for name, k := range n {
		st[name] = fmt.Sprintf("applied to %d assertion(s)", k)
	}
	for _, w := range r.Waivers.Expired {
		st[w.Name] = "expired on " + w.ExpiredOn() + ": the failure stands"
	}
	for _, w := range r.Waivers.Unused {
		st[w.Name] = "unused: matched no failed assertion"
	}
	return st
}

// summaryRows are the summary table's rows, shared by every format.
func (r *Report) summaryRows() [][2]string {
	m := r.Run.Meta
	rows := [][2]string{
		{"run", r.runLine()},
		{"runbook", withHash(m.Runbook, m.RunbookHash)},
		{"inventory", withHash(m.Inventory, m.InventoryHash)},
	}
	for _, src := range m.InventorySources {
		rows = append(rows, [2]string{"hosts from", src})
	}
	rows = append(rows, [][2]string{
		{"prova", orDash(m.ProvaVersion)},
		{"threshold profile", strings.Join(r.Profiles, ", ")},
		{"hosts", hostList(r.Hosts)},
		{"assertions", r.countsLine()},
	}...)
	if r.Baseline != nil {
		rows = append(rows, [2]string{"baseline", r.Baseline.Baseline})
	}
	if r.Waivers != nil {
		rows = append(rows, [2]string{"waivers", r.WaiverFile})
	}
	return rows
}

// failureLine is one entry of the "Failed" list: a host and what failed.
type failureLine struct{ Host, Text string }

// failureLines lists failed assertions (with expired waivers named) and
// step errors, shared by every format.
func (r *Report) failureLines() []failureLine {
	var out []failureLine
	for _, o := range r.Failed() {
		s := failureText(o.Step, o.Name, o.Message, o.Measured, o.Threshold)
		if o.Expired != nil {
			s += fmt.Sprintf(" [waiver %s expired on %s]", o.Expired.Name, o.Expired.ExpiredOn())
		}
		out = append(out, failureLine{o.Host, s})
	}
	for _, e := range r.StepErrors {
		out = append(out, failureLine{e.Host, fmt.Sprintf("%s: %s: %s", e.Step, e.Status, e.Message)})
	}
	return out
}
