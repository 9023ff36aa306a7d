package ui

import (
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/provadev/prova/engine/event"
	"github.com/provadev/prova/internal/hostlist"
)

// progressEvery is how often, in seconds of a host's Elapsed, a progress
// line is printed when the writer is not a terminal.
const progressEvery = 10

// statusLine is one host's line in the live status block of a terminal.
type statusLine struct {
	host, step string
	text       string // plain, redacted and cleaned, without the host column
}

func (s statusLine) render(c *Console) string {
	rest := s.text
	if c.width > 0 {
		rest = truncate(rest, c.width-c.hostW-3)
	}
	return c.hostCol(s.host) + "  " + rest
}

// progressText is "message" and "[12s elapsed, ~48s left]".
func (c *Console) progressText(e event.Progress) (msg, timing string) {
	msg = c.text(e.Message)
	if msg == "" {
		msg = "in progress"
	}
	if e.Elapsed == 0 && e.Remaining == 0 {
		return msg, ""
	}
	timing = "[" + seconds(e.Elapsed) + " elapsed"
	if e.Remaining > 0 {
		timing += ", ~" + seconds(e.Remaining) + " left"
	}
	return msg, timing + "]"
}

// showProgress updates the host's status line on a terminal; elsewhere it
// prints a line at most every progressEvery seconds of Elapsed per host.
func (c *Console) showProgress(e event.Progress) {
	msg, timing := c.progressText(e)
	if c.term {
		text := strings.TrimSpace(msg + " " + timing)
		for i := range c.status {
			if c.status[i].host == e.Host && c.status[i].step == e.Step {
				c.status[i].text = text
				c.emit()
				return
			}
		}
		c.status = append(c.status, statusLine{host: e.Host, step: e.Step, text: text})
		c.emit()
		return
	}
	if !c.verbose && c.mode != "plan" {
		c.busyProgress(e, msg, timing)
		return
	}
	k := key{e.Step, e.Host}
	if last, ok := c.progress[k]; ok && e.Elapsed-last < progressEvery {
		return
	}
	c.progress[k] = e.Elapsed
	c.emit(c.hostCol(e.Host) + "  " + msg + " " + c.st.dim.Sprint(timing) + c.stepNote(e.Step))
}

// dropStatus removes a host's status lines; they vanish at the next write.
func (c *Console) dropStatus(host string) {
	kept := c.status[:0]
	for _, s := range c.status {
		if s.host != host {
			kept = append(kept, s)
		}
	}
	c.status = kept
}

// busyStep is what a step's hosts still running last reported, for the
// summary's progress lines when the writer is not a terminal.
type busyStep struct {
	hosts  map[string]busyHost
	order  []string // first report order
	bucket int      // last bucket printed (see busyBucket)
}

type busyHost struct {
	msg, timing string
	elapsed     float64
	timeout     time.Duration // left before the attempt times out; -1: unbounded
}

// busyBucket numbers the moments a step's busy hosts are printed: when
// the longest-running of them passes 10 s, 20 s, 40 s, 80 s... (doubling
// from progressEvery), so a step that runs ten minutes prints six
// reminders, not sixty. 0 is before the first.
func busyBucket(longest float64) int {
	n := 0
	for t := float64(progressEvery); longest >= t; t *= 2 {
		n++
	}
	return n
}

// timeoutClause is how the engine's heartbeat ends its "running" message
// when the attempt is bounded (engine/apply heartbeat.go): the hosts of a
// summary line are grouped without it, and the line says when the first
// of them times out.
var timeoutClause = regexp.MustCompile(`, times out in ([0-9hms.]+)$`)

// splitTimeout returns msg without a heartbeat's timeout clause, and the
// time left it names (-1 for none).
func splitTimeout(msg string) (string, time.Duration) {
	m := timeoutClause.FindStringSubmatchIndex(msg)
	if m == nil {
		return msg, -1
	}
	d, err := time.ParseDuration(msg[m[2]:m[3]])
	if err != nil {
		return msg, -1
	}
	return msg[:m[0]], d
}

// busyProgress keeps e and, each time the longest-running host of the
// step reaches the next busyBucket, prints the busy hosts, one line per
// message: "gpfs[01-03,05-48]  47 running [longest 20s elapsed, first
// timeout in 9m40s]".
func (c *Console) busyProgress(e event.Progress, msg, timing string) {
	if c.busy == nil {
		c.busy = map[string]*busyStep{}
	}
	b := c.busy[e.Step]
	if b == nil {
		b = &busyStep{hosts: map[string]busyHost{}}
		c.busy[e.Step] = b
	}
	if _, ok := b.hosts[e.Host]; !ok {
		b.order = append(b.order, e.Host)
	}
	m, left := splitTimeout(msg)
	b.hosts[e.Host] = busyHost{msg: c.generic(e.Host, m, true), timing: timing, elapsed: e.Elapsed, timeout: left}
	longest := 0.0
	for _, h := range b.hosts {
		longest = max(longest, h.elapsed)
	}
	n := busyBucket(longest)
	if n < 1 || n <= b.bucket {
		return
	}
	b.bucket = n
	var msgs []string
	by := map[string][]string{}
	top := map[string]float64{}
	first := map[string]time.Duration{}
	for _, h := range b.order {
		bh, ok := b.hosts[h]
		if !ok {
			continue
		}
		if _, seen := by[bh.msg]; !seen {
			msgs = append(msgs, bh.msg)
			first[bh.msg] = -1
		}
		by[bh.msg] = append(by[bh.msg], h)
		top[bh.msg] = max(top[bh.msg], bh.elapsed)
		if bh.timeout >= 0 && (first[bh.msg] < 0 || bh.timeout < first[bh.msg]) {
			first[bh.msg] = bh.timeout
		}
	}
	for _, m := range msgs {
		hs := by[m]
		if len(hs) == 1 {
			bh := b.hosts[hs[0]]
			timing := bh.timing
			if bh.timeout >= 0 {
				timing = strings.TrimSuffix(timing, "]") + ", times out in " + bh.timeout.String() + "]"
			}
			c.emit(c.hostCol(hs[0]) + "  " + show(m, hs[0], 1) + " " + c.st.dim.Sprint(timing) + c.stepNote(e.Step))
			continue
		}
		timing := "[longest " + seconds(top[m]) + " elapsed"
		if first[m] >= 0 {
			timing += ", first timeout in " + first[m].String()
		}
		l := c.text(hostlist.Fold(hs))
		c.emit(c.st.host(l).Sprint(l) + fmt.Sprintf("  %d ", len(hs)) + show(m, hs[0], len(hs)) + " " +
			c.st.dim.Sprint(timing+"]") + c.stepNote(e.Step))
	}
}

// notBusy forgets a host that finished a step.
func (c *Console) notBusy(step, host string) {
	if b := c.busy[step]; b != nil {
		delete(b.hosts, host)
	}
}
