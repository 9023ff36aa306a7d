package ui

import (
	"fmt"
	"github.com/provadev/prova/internal/hostlist"
	"sort"
	"strings"

	"github.com/provadev/prova/engine/event"
	"github.com/provadev/prova/internal/evidence/findings"
)

// The Findings block ends an apply, before the recap: every host that
// failed, warned or was unreachable, with its cause, grouped by cause. The
// cause is what a diagnosing step's result named for the host (a "cause"
// output other than "none", as verbs_diagnose gives, with the "missing"
// peers it is about). Hosts whose cause is peer_side point at other hosts:
// when those are failed hosts of the Findings, the pointing hosts are one
// line under their culprit ("47 peers cannot reach gpfs04 over RDMA").
// What a finding is, its cause and its peers come from the shared model
// (internal/evidence/findings, also behind the JSON summary and the
// reports); the grouping for people is the console's.

// hostFinding is one host's findings taken together: its worst status,
// the steps it failed or warned in, the message of its first finding with
// that status, and the cause and peers its diagnosis named.
type hostFinding struct {
	status  event.Status // the worst: unreachable > failed > warn
	steps   []string
	message string
	cause   string
	peers   []string
}

func worse(a, b event.Status) bool {
	rank := map[event.Status]int{event.Warned: 1, event.Failed: 2, event.Unreachable: 3}
	return rank[a] > rank[b]
}

// notice feeds one host result to the findings model.
func (c *Console) notice(e event.HostFinished) {
	c.find.Add(e.Step, e.Host, e.Status, e.Message, e.Result)
}

// byHost folds the model's host-step findings into one entry per host,
// in first-seen order.
func (c *Console) byHost() ([]string, map[string]*hostFinding) {
	var order []string
	by := map[string]*hostFinding{}
	for _, f := range c.find.Findings() {
		msg := ""
		if l := lines(c.red.String(f.Message)); len(l) > 0 {
			msg = clean(l[0])
		}
		hf := by[f.Host]
		if hf == nil {
			hf = &hostFinding{status: f.Status, message: msg, cause: f.Cause, peers: f.Peers}
			by[f.Host] = hf
			order = append(order, f.Host)
		} else if worse(f.Status, hf.status) {
			hf.status, hf.message = f.Status, msg
		}
		hf.steps = append(hf.steps, f.Step)
	}
	return order, by
}

// findingGroup is hosts with the same status, cause, steps and message.
type findingGroup struct {
	status  event.Status
	cause   string
	steps   []string
	message string // generic
	hosts   []string
	peers   []*findingGroup // peer_side groups folded under this one
	culprit []string        // for a peer_side group: the hosts it points at
}

func (c *Console) findingGroups() []*findingGroup {
	order, by := c.byHost()
	var groups []*findingGroup
	byKey := map[string]*findingGroup{}
	for _, h := range order {
		hf := by[h]
		cause := hf.cause
		msg := c.generic(h, hf.message, true)
		var culprits []string
		if cause == findings.CausePeerSide {
			culprits = hf.peers
			msg = "" // the culprit's line says it
		}
		k := strings.Join([]string{string(hf.status), cause, strings.Join(hf.steps, ","), msg, strings.Join(culprits, ",")}, "\x00")
		g := byKey[k]
		if g == nil {
			g = &findingGroup{status: hf.status, cause: cause, steps: hf.steps, message: msg, culprit: culprits}
			byKey[k] = g
			groups = append(groups, g)
		}
		g.hosts = append(g.hosts, h)
	}
	// Fold peer_side groups under the group of their first culprit when
	// every culprit has a finding that is not itself peer_side.
	var out []*findingGroup
	for _, g := range groups {
		if g.cause == findings.CausePeerSide && len(g.culprit) > 0 {
			if home := c.culpritGroup(groups, by, g.culprit); home != nil {
				home.peers = append(home.peers, g)
				continue
			}
		}
		out = append(out, g)
	}
	// Failures (unreachable, failed) before warnings; then fewer hosts first:
	// the odd host out is usually the culprit.
	idx := indexOf(c.hosts)
	first := func(g *findingGroup) int {
		r := len(idx)
		for _, h := range g.hosts {
			r = min(r, rank(idx, h))
		}
		return r
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if severity(a.status) != severity(b.status) {
			return severity(a.status) > severity(b.status)
		}
		if len(a.hosts) != len(b.hosts) {
			return len(a.hosts) < len(b.hosts)
		}
		return first(a) < first(b)
	})
	return out
}

func (c *Console) culpritGroup(groups []*findingGroup, by map[string]*hostFinding, culprits []string) *findingGroup {
	var home *findingGroup
	for _, h := range culprits {
		hf := by[h]
		if hf == nil || hf.cause == findings.CausePeerSide || hf.status == event.Warned {
			return nil
		}
		if home == nil {
			for _, g := range groups {
				for _, gh := range g.hosts {
					if gh == h {
						home = g
					}
				}
			}
		}
	}
	return home
}

// writeFindings writes the Findings block, if any host has a finding.
func (c *Console) writeFindings() {
	order, by := c.byHost()
	if len(order) == 0 {
		return
	}
	failed, warned := 0, 0
	for _, h := range order {
		if by[h].status == event.Warned {
			warned++
		} else {
			failed++
		}
	}
	var parts []string
	if failed > 0 {
		parts = append(parts, plural(failed, "host", "hosts")+" failed")
	}
	if warned > 0 {
		parts = append(parts, fmt.Sprintf("%d warned", warned))
	}
	c.header("findings: " + strings.Join(parts, ", "))
	for _, g := range c.findingGroups() {
		word := c.st.failed.Sprint("FAILED")
		switch g.status {
		case event.Warned:
			word = c.st.warn.Sprint("warn")
		case event.Unreachable:
			word = c.st.failed.Sprint("UNREACHABLE")
		}
		who := c.text(hostlist.Fold(g.hosts))
		if len(g.hosts) > 1 {
			who += fmt.Sprintf(" (%d)", len(g.hosts))
		}
		line := word + "  " + c.st.host(who).Sprint(who)
		if g.cause != "" {
			line += "  " + c.st.bold.Sprint(c.text(g.cause))
		}
		if g.message != "" {
			line += ": " + show(g.message, g.hosts[0], len(g.hosts))
		} else if g.cause == findings.CausePeerSide {
			line += ": " + c.peerLine(g)
		}
		line += c.st.dim.Sprint(" [" + c.text(strings.Join(g.steps, ", ")) + "]")
		c.emit(line)
		for _, p := range g.peers {
			c.emit("    " + c.peerLine(p) + ": " + c.text(hostlist.Fold(p.hosts)) +
				c.st.dim.Sprint(" ("+string(p.status)+", cause "+findings.CausePeerSide+")"))
		}
	}
}

// peerLine is "47 peers cannot reach gpfs04 over RDMA".
func (c *Console) peerLine(g *findingGroup) string {
	return fmt.Sprintf("%s cannot reach %s over RDMA", plural(len(g.hosts), "peer", "peers"), c.text(hostlist.Fold(g.culprit)))
}
