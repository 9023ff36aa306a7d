package ui

import (
	"fmt"
	"github.com/provadev/prova/internal/hostlist"
	"sort"
	"strings"

	"github.com/fatih/color"
	"github.com/provadev/prova/engine/event"
)

// runFinished shows the remaining plans, the recap table and the verdict.
func (c *Console) runFinished(e event.RunFinished) {
	counts := c.planSeen
	c.flushAll()
	c.flushPlans()
	c.status = nil
	mode := e.Mode
	if mode == "" {
		mode = c.mode
	}
	if mode != "plan" {
		c.writeFindings()
	}
	if mode != "plan" || probesFailed(e.Hosts) {
		c.recap(e.Hosts)
	}
	c.emit("")
	if mode == "plan" {
		if c.failRule != "" {
			c.emit("Failure rule: " + c.text(c.failRule))
		}
		c.emit(c.planLine(e, counts))
		if e.Failed {
			c.emit(c.st.failed.Sprint("Plan failed") + " after " + duration(e.Duration) + ".")
		}
		return
	}
	switch {
	case e.Failed && c.aborted != nil:
		c.emit(c.st.failed.Sprint("Apply failed") + " after " + duration(e.Duration) +
			" (aborted: " + c.text(c.aborted.Reason) + ").")
	case e.Failed:
		c.emit(c.st.failed.Sprint("Apply failed") + " after " + duration(e.Duration) + ".")
	default:
		c.emit(c.st.ok.Sprint("Apply complete") + " in " + duration(e.Duration) + ".")
	}
}

type planCounts struct{ change, unknown, noop, skip, wouldFail int }

func probesFailed(hosts map[string]event.Tally) bool {
	for _, t := range hosts {
		if t.Failed > 0 || t.Unreachable > 0 {
			return true
		}
	}
	return false
}

// planLine is "Plan: 3 to change, 1 would fail, 1 known after apply, 4
// unchanged."
func (c *Console) planLine(e event.RunFinished, n planCounts) string {
	if e.Changes == 0 && n.unknown == 0 && n.wouldFail == 0 {
		return c.st.ok.Sprint("No changes.") + " The hosts already match the runbook."
	}
	parts := []string{c.st.change.Sprintf("%d to change", e.Changes)}
	if n.wouldFail > 0 {
		parts = append(parts, c.st.failed.Sprintf("%d would fail", n.wouldFail))
	}
	if n.unknown > 0 {
		parts = append(parts, c.st.unknown.Sprintf("%d known after apply", n.unknown))
	}
	parts = append(parts, fmt.Sprintf("%d unchanged", n.noop))
	if n.skip > 0 {
		parts = append(parts, fmt.Sprintf("%d skipped", n.skip))
	}
	return c.st.bold.Sprint("Plan:") + " " + strings.Join(parts, ", ") + "."
}

// recap is the per-host table, like Ansible's PLAY RECAP.
func (c *Console) recap(tallies map[string]event.Tally) {
	if len(tallies) == 0 {
		return
	}
	idx := indexOf(c.hosts)
	names := make([]string, 0, len(tallies))
	for h := range tallies {
		names = append(names, h)
	}
	sort.Slice(names, func(i, j int) bool {
		ri, rj := rank(idx, names[i]), rank(idx, names[j])
		if ri != rj {
			return ri < rj
		}
		return names[i] < names[j]
	})
	type field struct {
		name string
		get  func(event.Tally) int
		col  *color.Color
	}
	fields := []field{
		{"ok", func(t event.Tally) int { return t.OK }, c.st.ok},
		{"changed", func(t event.Tally) int { return t.Changed }, c.st.changed},
		{"failed", func(t event.Tally) int { return t.Failed }, c.st.failed},
		{"skipped", func(t event.Tally) int { return t.Skipped }, c.st.skipped},
		{"unreachable", func(t event.Tally) int { return t.Unreachable }, c.st.failed},
		{"warned", func(t event.Tally) int { return t.Warned }, c.st.warn},
	}
	widths := make([]int, len(fields))
	for _, h := range names {
		for i, f := range fields {
			widths[i] = max(widths[i], len(fmt.Sprintf("%s=%d", f.name, f.get(tallies[h]))))
		}
	}
	// Hosts with equal counts are one line, in the order of their first host.
	type row struct {
		t     event.Tally
		hosts []string
	}
	var rows []*row
	byTally := map[event.Tally]*row{}
	for _, h := range names {
		t := tallies[h]
		r := byTally[t]
		if r == nil {
			r = &row{t: t}
			byTally[t] = r
			rows = append(rows, r)
		}
		r.hosts = append(r.hosts, h)
	}
	labels := make([]string, len(rows))
	labelW := 0
	for i, r := range rows {
		labels[i] = c.text(hostlist.Fold(r.hosts))
		if len(r.hosts) > 1 {
			labels[i] += fmt.Sprintf(" (%d)", len(r.hosts))
		}
		labelW = max(labelW, len([]rune(labels[i])))
	}
	c.header("recap")
	var out []string
	for i, r := range rows {
		line := c.st.host(labels[i]).Sprint(labels[i]) + pad("", labelW-len([]rune(labels[i])))
		for j, f := range fields {
			n := f.get(r.t)
			cell := fmt.Sprintf("%s=%d", f.name, n)
			padded := pad(cell, widths[j])
			if n > 0 {
				padded = f.col.Sprint(cell) + padded[len(cell):]
			}
			line += "  " + padded
		}
		out = append(out, strings.TrimRight(line, " "))
	}
	c.emit(out...)
}
