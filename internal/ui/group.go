package ui

import (
	"fmt"
	"github.com/provadev/prova/internal/hostlist"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/provadev/prova/engine/event"
)

// At default verbosity a step's host results are written when the step
// ends, hosts with the same outcome as one line: the folded host list, the
// count and the status, the message once. Messages name hosts, so they are
// compared in a generic form: the host's own name becomes <host>, a list
// of host names is folded (FoldHosts), and a list of every other host of
// the run becomes "all N other hosts". A group of one host is written as
// before; -v writes every host as its result arrives.

// selfMark stands for the host's own name in a generic text.
const selfMark = "\x00self\x00"

var nameRE = regexp.MustCompile(`[A-Za-z0-9_][A-Za-z0-9_.-]*[A-Za-z0-9_]|[A-Za-z0-9_]`)

// generic rewrites s for host: lists of two or more known host names are
// folded, a list of all other hosts of the run is named so, and host's own
// name becomes selfMark when self is true.
func (c *Console) generic(host, s string, self bool) string {
	if s == "" {
		return s // most parts of a group's key (no message, no diagnostics)
	}
	if c.known == nil {
		c.known = make(map[string]bool, len(c.hosts))
		for _, h := range c.hosts {
			c.known[h] = true
		}
	}
	locs := nameRE.FindAllStringIndex(s, -1)
	var b strings.Builder
	last := 0
	for i := 0; i < len(locs); i++ {
		tok := s[locs[i][0]:locs[i][1]]
		if !c.known[tok] {
			continue
		}
		// A run: host names separated by ", " or ",".
		j := i
		for j+1 < len(locs) && c.known[s[locs[j+1][0]:locs[j+1][1]]] {
			sep := s[locs[j][1]:locs[j+1][0]]
			if sep != ", " && sep != "," {
				break
			}
			j++
		}
		b.WriteString(s[last:locs[i][0]])
		if j > i {
			names := make([]string, 0, j-i+1)
			hasSelf := false
			for k := i; k <= j; k++ {
				n := s[locs[k][0]:locs[k][1]]
				names = append(names, n)
				hasSelf = hasSelf || n == host
			}
			if !hasSelf && len(names) == len(c.hosts)-1 && len(c.hosts) > 2 && c.known[host] {
				b.WriteString(fmt.Sprintf("all %d other hosts", len(names)))
			} else {
				b.WriteString(hostlist.Fold(names))
			}
		} else if self && tok == host {
			b.WriteString(selfMark)
		} else {
			b.WriteString(tok)
		}
		last = locs[j][1]
		i = j
	}
	b.WriteString(s[last:])
	return b.String()
}

// show renders a generic text for a group of n hosts.
func show(s string, host string, n int) string {
	if n == 1 {
		return strings.ReplaceAll(s, selfMark, host)
	}
	return strings.ReplaceAll(s, selfMark, "<host>")
}

// appendGroupKey appends what hosts must share to be one line: the
// status, then each part of the entry (message, checks, tail,
// diagnostics) in its generic form, its lines ended by \x02, each part
// opened by \x01. flushGroups makes it in one buffer of the Console's
// and looks the group up with it, so that a step's hosts that share one
// outcome make one key string, not one each.
func (c *Console) appendGroupKey(b []byte, en hostEntry) []byte {
	b = append(b, en.status...)
	for _, part := range [][]string{en.msg, en.checks, en.tail, {en.diags}} {
		b = append(b, '\x01')
		for _, l := range part {
			b = append(b, c.generic(en.host, l, true)...)
			b = append(b, '\x02')
		}
	}
	return b
}

// severity orders a step's groups: successes first, failures last.
func severity(s event.Status) int {
	switch s {
	case event.OK:
		return 0
	case event.Changed:
		return 1
	case event.Skipped:
		return 2
	case event.Warned:
		return 3
	case event.Failed:
		return 4
	}
	return 5
}

// flushAll writes what is pending of every step, in the order the steps
// started.
func (c *Console) flushAll() {
	steps := make([]string, 0, len(c.pending)+len(c.retries)+len(c.dropped))
	for s := range c.pending {
		steps = append(steps, s)
	}
	for s := range c.retries {
		steps = append(steps, s)
	}
	for s := range c.dropped {
		steps = append(steps, s)
	}
	idx := indexOf(c.steps)
	sort.SliceStable(steps, func(i, j int) bool { return rank(idx, steps[i]) < rank(idx, steps[j]) })
	for _, s := range steps {
		c.flushGroups(s)
	}
}

// flushGroups writes the step's retries, host results and dropped hosts,
// grouped.
func (c *Console) flushGroups(step string) {
	delete(c.busy, step)
	entries := c.pending[step]
	delete(c.pending, step)
	type group struct {
		n       int // entries, while they are counted
		entries []hostEntry
	}
	// Keys first, so that each group's entries are gathered once into a
	// slice of their number, and the usual single group (every host with
	// the same outcome) is the entries themselves, not a copy.
	var groups []*group
	of := make([]*group, len(entries)) // each entry's group
	byKey := map[string]*group{}
	for i, en := range entries {
		c.keyBuf = c.appendGroupKey(c.keyBuf[:0], en)
		g := byKey[string(c.keyBuf)]
		if g == nil {
			g = &group{}
			byKey[string(c.keyBuf)] = g
			groups = append(groups, g)
		}
		g.n++
		of[i] = g
	}
	if len(groups) == 1 {
		groups[0].entries = entries
	} else {
		for _, g := range groups {
			g.entries = make([]hostEntry, 0, g.n)
		}
		for i, en := range entries {
			of[i].entries = append(of[i].entries, en)
		}
	}
	if cap(c.keyBuf) > 64<<10 {
		c.keyBuf = nil // a rare huge key's buffer is not kept
	}
	for _, g := range groups {
		if d, ok := c.absorbRetries(step, g.entries); ok {
			for i := range g.entries {
				g.entries[i].retried, g.entries[i].absorbed = d, true
			}
		}
	}
	c.flushRetries(step)
	defer c.flushDropped(step)
	if len(entries) == 0 {
		return
	}
	// Successes first, failures last; then by the first host in run order,
	// so that the same outcomes print the same whatever order hosts ended in.
	idx := indexOf(c.hosts)
	first := func(g *group) int {
		r := len(idx)
		for _, en := range g.entries {
			r = min(r, rank(idx, en.host))
		}
		return r
	}
	sort.SliceStable(groups, func(i, j int) bool {
		si, sj := severity(groups[i].entries[0].status), severity(groups[j].entries[0].status)
		if si != sj {
			return si < sj
		}
		return first(groups[i]) < first(groups[j])
	})
	for _, g := range groups {
		if len(g.entries) == 1 {
			c.emitEntry(g.entries[0])
			continue
		}
		c.emitGroup(g.entries)
	}
}

// emitGroup writes hosts with the same outcome as one entry.
func (c *Console) emitGroup(ens []hostEntry) {
	first := ens[0]
	names := make([]string, len(ens))
	var longest time.Duration
	for i, en := range ens {
		names[i] = en.host
		longest = max(longest, en.dur)
	}
	n := len(ens)
	gen := func(s string) string { return show(c.generic(first.host, s, true), first.host, n) }
	hostList := c.text(hostlist.Fold(names))
	line := c.st.host(hostList).Sprint(hostList) + "  " + fmt.Sprintf("%d %s", n, first.word)
	if len(first.msg) > 0 {
		line += ": " + gen(first.msg[0])
	}
	line += first.retriedNote() + c.stepNote(first.step)
	if longest > 0 {
		line += c.st.dim.Sprint(" (longest " + duration(longest) + ")")
	}
	out := []string{line}
	for _, m := range first.msg[min(1, len(first.msg)):] {
		out = append(out, "    "+gen(m))
	}
	for _, ch := range first.checks {
		out = append(out, "      "+gen(ch))
	}
	for _, l := range first.tail {
		out = append(out, c.st.dim.Sprint("  | ")+gen(l))
	}
	c.emit(out...)
	if first.diags != "" {
		c.emit("", fmt.Sprintf("The same diagnostic on %d hosts (%s), shown for %s:", n, hostList, c.text(first.host)), "")
		c.emitBlock(first.diags)
		c.emit("")
	}
}

// retryTally is a step's retries that share a reason and a delay.
type retryTally struct {
	order []string
	by    map[string]*retryGroup
}

type retryGroup struct {
	reason, host string // the first host's reason, generic
	delay        time.Duration
	hosts        []string
	attempts     map[string][2]int // host -> first and last attempt retried
}

// span is the attempts of the group's hosts: lowest first, highest last.
func (g *retryGroup) span() (lo, hi int) {
	for i, h := range g.hosts {
		a := g.attempts[h]
		if i == 0 {
			lo, hi = a[0], a[1]
		}
		lo, hi = min(lo, a[0]), max(hi, a[1])
	}
	return lo, hi
}

func (c *Console) groupRetry(e event.Retry) {
	t := c.retries[e.Step]
	if t == nil {
		t = &retryTally{by: map[string]*retryGroup{}}
		c.retries[e.Step] = t
	}
	reason := c.generic(e.Host, c.text(e.Reason), true)
	k := reason + "\x00" + e.Delay.String()
	g := t.by[k]
	if g == nil {
		g = &retryGroup{reason: reason, host: e.Host, delay: e.Delay, attempts: map[string][2]int{}}
		t.by[k] = g
		t.order = append(t.order, k)
	}
	a, ok := g.attempts[e.Host]
	if !ok {
		g.hosts = append(g.hosts, e.Host)
		a = [2]int{e.Attempt, e.Attempt}
	}
	g.attempts[e.Host] = [2]int{min(a[0], e.Attempt), max(a[1], e.Attempt)}
}

// absorbRetries takes the hosts of a group that gave up waiting out of
// the step's retries with the same reason: an "attempts 1-6 failed" line
// would repeat their result line, which says "retried every" instead. It
// returns that delay. Hosts of the retry group that did not give up keep
// its line.
func (c *Console) absorbRetries(step string, ens []hostEntry) (time.Duration, bool) {
	t := c.retries[step]
	if t == nil || len(ens) == 0 || !ens[0].gaveUp || len(ens[0].msg) == 0 {
		return 0, false
	}
	first := ens[0]
	msg := c.generic(first.host, first.msg[0], true)
	for i, k := range t.order {
		g := t.by[k]
		if !strings.HasSuffix(msg, show(g.reason, first.host, len(ens))) && !strings.HasSuffix(msg, g.reason) {
			continue
		}
		all := true
		for _, en := range ens {
			if _, ok := g.attempts[en.host]; !ok {
				all = false
				break
			}
		}
		if !all {
			continue
		}
		gone := map[string]bool{}
		for _, en := range ens {
			gone[en.host] = true
			delete(g.attempts, en.host)
		}
		kept := g.hosts[:0]
		for _, h := range g.hosts {
			if !gone[h] {
				kept = append(kept, h)
			}
		}
		g.hosts = kept
		if len(kept) == 0 {
			delete(t.by, k)
			t.order = append(t.order[:i:i], t.order[i+1:]...)
		} else if gone[g.host] {
			g.host = kept[0]
		}
		return g.delay, true
	}
	return 0, false
}

func (c *Console) flushRetries(step string) {
	t := c.retries[step]
	delete(c.retries, step)
	if t == nil {
		return
	}
	idx := indexOf(c.hosts)
	firstRank := func(k string) int {
		r := len(idx)
		for _, h := range t.by[k].hosts {
			r = min(r, rank(idx, h))
		}
		return r
	}
	sort.SliceStable(t.order, func(i, j int) bool { return firstRank(t.order[i]) < firstRank(t.order[j]) })
	for _, k := range t.order {
		g := t.by[k]
		lo, hi := g.span()
		attempts := fmt.Sprintf("attempt %d failed", lo)
		if hi > lo {
			attempts = fmt.Sprintf("attempts %d-%d failed", lo, hi)
		}
		who := c.hostCol(g.host) + "  "
		if len(g.hosts) > 1 {
			l := c.text(hostlist.Fold(g.hosts))
			who = c.st.host(l).Sprint(l) + fmt.Sprintf("  %d ", len(g.hosts))
		}
		c.emit(who + c.st.retry.Sprint(attempts) + c.stepNote(step) + ": " +
			show(g.reason, g.host, len(g.hosts)) + "; retried every " + duration(g.delay))
	}
}

// flushDropped writes the hosts a step dropped from the run, one line per
// reason.
func (c *Console) flushDropped(step string) {
	ds := c.dropped[step]
	delete(c.dropped, step)
	var order []string
	by := map[string][]string{}
	for _, d := range ds {
		r := c.text(d.Reason)
		if _, ok := by[r]; !ok {
			order = append(order, r)
		}
		by[r] = append(by[r], d.Host)
	}
	for _, r := range order {
		hs := by[r]
		who := c.hostCol(hs[0]) + "  "
		if len(hs) > 1 {
			l := c.text(hostlist.Fold(hs))
			who = c.st.host(l).Sprint(l) + fmt.Sprintf("  %d ", len(hs))
		}
		c.emit(who + c.st.failed.Sprint("dropped from the run") + ": " + r)
	}
}
