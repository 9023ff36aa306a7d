package ui

import (
	"fmt"
	"sort"

	"github.com/provadev/prova/engine/event"
)

// planned buffers a host's plan; plans are shown grouped by step when the
// step finishes planning, or at the end of the run.
func (c *Console) planned(e event.PlannedHost) {
	if _, ok := c.plans[e.Step]; !ok {
		c.planOrder = append(c.planOrder, e.Step)
	}
	c.plans[e.Step] = append(c.plans[e.Step], e)
	switch {
	case e.Action == event.PlanChange:
		c.planSeen.change++
	case e.Action == event.PlanUnknown:
		c.planSeen.unknown++
	case e.Action == event.PlanNoChange:
		c.planSeen.noop++
	case e.Action == event.PlanSkip:
		c.planSeen.skip++
	case e.Action.Certain():
		c.planSeen.wouldFail++
	}
}

// flushPlans shows every buffered step in run order.
func (c *Console) flushPlans() {
	order := append([]string(nil), c.planOrder...)
	idx := indexOf(c.steps)
	sort.SliceStable(order, func(i, j int) bool { return rank(idx, order[i]) < rank(idx, order[j]) })
	for _, s := range order {
		c.flushPlan(s)
	}
}

func indexOf(list []string) map[string]int {
	m := make(map[string]int, len(list))
	for i, s := range list {
		if _, ok := m[s]; !ok {
			m[s] = i
		}
	}
	return m
}

// rank orders names known to the run first, in run order.
func rank(idx map[string]int, s string) int {
	if i, ok := idx[s]; ok {
		return i
	}
	return len(idx)
}

// flushPlan renders one step's plan, hosts in inventory order:
//
//	~ gpfs01  verbsRdma: disable -> enable
//	= gpfs02  no change
func (c *Console) flushPlan(step string) {
	ps, ok := c.plans[step]
	if !ok {
		return
	}
	delete(c.plans, step)
	for i, s := range c.planOrder {
		if s == step {
			c.planOrder = append(c.planOrder[:i:i], c.planOrder[i+1:]...)
			break
		}
	}
	idx := indexOf(c.hosts)
	sort.SliceStable(ps, func(i, j int) bool {
		ri, rj := rank(idx, ps[i].Host), rank(idx, ps[j].Host)
		if ri != rj {
			return ri < rj
		}
		return ps[i].Host < ps[j].Host
	})
	c.header(fmt.Sprintf("step %s (%s)", c.text(step), plural(len(ps), "host", "hosts")))
	if len(ps) > 1 && allSkipped(ps) {
		// A step skipped everywhere for one reason (a path the site does
		// not run) is one line, not one per host.
		c.emit("  " + c.st.dim.Sprint(event.PlanSkip.Symbol()) + " " + c.text(fmt.Sprintf("all %d hosts: %s", len(ps), orAction(ps[0]))))
		return
	}
	var out []string
	var diags []event.PlannedHost
	for _, p := range ps {
		sym, col := p.Symbol, c.st.dim
		switch {
		case p.Action == event.PlanChange:
			col = c.st.change
		case p.Action == event.PlanUnknown:
			col = c.st.unknown
		case p.Action == event.PlanNoChange, p.Action == event.PlanSkip:
		case p.Action.Certain():
			col = c.st.failed
		default:
			col = c.st.bold
		}
		if sym == "" {
			sym = p.Action.Symbol()
		}
		what := p.Summary
		if what == "" {
			what = string(p.Action)
		}
		if p.Action.Certain() {
			what = string(p.Action) + ": " + what
		}
		out = append(out, "  "+col.Sprint(sym)+" "+c.hostCol(p.Host)+"  "+c.text(what))
		if p.Destructive != "" {
			out = append(out, "    "+c.blankCol()+"    "+c.st.failed.Sprint("DESTRUCTIVE: "+c.text(p.Destructive)))
		}
		if len(p.Diagnostics) > 0 {
			diags = append(diags, p)
		}
		for _, ch := range p.Changes {
			s := fmt.Sprintf("%s: %s -> %s", ch.Name, orUnset(ch.From), orUnset(ch.To))
			if s == p.Summary {
				continue
			}
			out = append(out, "    "+c.blankCol()+"    "+c.text(s))
		}
	}
	c.emit(out...)
	// What apply would print for a host that would fail, with its source
	// line and the values involved.
	for _, p := range diags {
		c.emit("")
		c.emitBlock(c.renderDiags(p.Diagnostics))
	}
}

func orUnset(v string) string {
	if v == "" {
		return "(unset)"
	}
	return v
}

// allSkipped reports whether every host skips the step for the same reason.
func allSkipped(ps []event.PlannedHost) bool {
	for _, p := range ps {
		if p.Action != event.PlanSkip || p.Summary != ps[0].Summary {
			return false
		}
	}
	return true
}

func orAction(p event.PlannedHost) string {
	if p.Summary != "" {
		return p.Summary
	}
	return string(p.Action)
}
