package report

import (
	"fmt"
	"github.com/provadev/prova/internal/hostlist"
	"strings"

	"github.com/provadev/prova/engine/event"
	"github.com/provadev/prova/internal/evidence/findings"
)

// Findings are the failed and warned hosts after waivers, each with the
// cause its diagnosis named, in the shared findings model.
func (r *Report) Findings() []findings.Finding {
	c := findings.NewCollector()
	for _, s := range r.Run.Steps {
		for _, h := range orderHosts(keys(s.Hosts), r.Hosts) {
			c.Add(s.Step, h, event.OK, "", s.Hosts[h].Result) // causes only
		}
	}
	var out []findings.Finding
	add := func(step, host string, st event.Status, msg string) {
		cause, peers := c.Cause(host)
		if cause == "" && st == event.Unreachable {
			cause = findings.CauseUnreachable
		}
		out = append(out, findings.Finding{Host: host, Step: step, Status: st, Cause: cause, Message: msg, Peers: peers})
	}
	for _, o := range r.Assertions {
		switch o.Verdict {
		case "fail":
			add(o.Step, o.Host, event.Failed, failureText(o.Step, o.Name, o.Message, o.Measured, o.Threshold))
		case "warn":
			add(o.Step, o.Host, event.Warned, failureText(o.Step, o.Name, o.Message, o.Measured, o.Threshold))
		}
	}
	for _, e := range r.StepErrors {
		st := e.Status
		if st == "unfinished" {
			st = event.Failed
		}
		add(e.Step, e.Host, st, fmt.Sprintf("%s: %s: %s", e.Step, e.Status, e.Message))
	}
	return out
}

// findingLine is one group of findings in words.
type findingLine struct {
	Status, Cause, Hosts, Text string
	N                          int
}

// findingLines groups the findings by cause, the odd one out first: "1
// host, connect_failed: gpfs04: ..."; a peer_side group names the peers
// its hosts cannot reach.
func (r *Report) findingLines() []findingLine {
	fs := r.Findings()
	var out []findingLine
	for _, g := range findings.ByCause(fs) {
		cause := g.Cause
		if cause == "" {
			cause = "no diagnosis"
		}
		text := g.Message
		if g.Cause == findings.CausePeerSide {
			peers := map[string]bool{}
			var list []string
			for _, f := range fs {
				if f.Cause == g.Cause && f.Status == g.Status {
					for _, p := range f.Peers {
						if !peers[p] {
							peers[p] = true
							list = append(list, p)
						}
					}
				}
			}
			if len(list) > 0 {
				text = fmt.Sprintf("%d host(s) cannot reach %s over RDMA: the problem is on the side of %s", len(g.Hosts), hostlist.Fold(list), hostlist.Fold(list))
			}
		}
		if len(g.Steps) > 1 {
			text += fmt.Sprintf(" (in %d steps: %s)", len(g.Steps), strings.Join(g.Steps, ", "))
		}
		if len(text) > maxFindingText {
			cutAt := maxFindingText
			for cutAt > 0 && text[cutAt]&0xC0 == 0x80 {
				cutAt--
			}
			text = text[:cutAt] + " …"
		}
		out = append(out, findingLine{Status: string(g.Status), Cause: cause, Hosts: hostlist.Fold(g.Hosts), Text: text, N: len(g.Hosts)})
	}
	return out
}

// maxFindingText bounds a finding group's text (the first host's message);
// each failure's full text is in the Failed list and the appendix.
const maxFindingText = 240

// collapseAt is the host count from which tables show only the hosts that
// are not clean, the full tables moving to the appendix.
const collapseAt = 16

// lineFold is the passing hosts of one line, folded into one row.
type lineFold struct {
	Line  string
	Hosts []string
}

// shownLines returns the three-line rows to show in full and, when the
// run has many hosts, the passing rows folded per line.
func (r *Report) shownLines() ([]Line, []lineFold) {
	if len(r.Hosts) <= collapseAt {
		return r.Lines, nil
	}
	var shown []Line
	pass := map[string][]string{}
	var order []string
	for _, l := range r.Lines {
		if l.Verdict != "pass" {
			shown = append(shown, l)
			continue
		}
		if _, ok := pass[l.Line]; !ok {
			order = append(order, l.Line)
		}
		pass[l.Line] = append(pass[l.Line], l.Host)
	}
	var folds []lineFold
	for _, line := range order {
		folds = append(folds, lineFold{Line: line, Hosts: pass[line]})
	}
	return shown, folds
}

// cleanHosts are the hosts with no failed or warned assertion and no step
// error.
func (r *Report) cleanHosts() []string {
	bad := r.notCleanHosts()
	var out []string
	for _, h := range r.Hosts {
		if !bad[h] {
			out = append(out, h)
		}
	}
	return out
}
