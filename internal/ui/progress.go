package ui

import (
	"fmt"
	"github.com/provadev/prova/internal/hostlist"
	"strings"

	"github.com/provadev/prova/engine/event"
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
	bucket int      // last progressEvery bucket printed
}

type busyHost struct {
	msg, timing string
	elapsed     float64
}

// busyProgress keeps e and, each time the longest-running host of the step
// passes another progressEvery seconds, prints the busy hosts, one line
// per message: "gpfs[01-03,05-48]  47 running verbs_conn.conn [longest 20s elapsed]".
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
	b.hosts[e.Host] = busyHost{msg: c.generic(e.Host, msg, true), timing: timing, elapsed: e.Elapsed}
	longest := 0.0
	for _, h := range b.hosts {
		longest = max(longest, h.elapsed)
	}
	n := int(longest / progressEvery)
	if n < 1 || n <= b.bucket {
		return
	}
	b.bucket = n
	var msgs []string
	by := map[string][]string{}
	top := map[string]float64{}
	for _, h := range b.order {
		bh, ok := b.hosts[h]
		if !ok {
			continue
		}
		if _, seen := by[bh.msg]; !seen {
			msgs = append(msgs, bh.msg)
		}
		by[bh.msg] = append(by[bh.msg], h)
		top[bh.msg] = max(top[bh.msg], bh.elapsed)
	}
	for _, m := range msgs {
		hs := by[m]
		if len(hs) == 1 {
			c.emit(c.hostCol(hs[0]) + "  " + show(m, hs[0], 1) + " " + c.st.dim.Sprint(b.hosts[hs[0]].timing) + c.stepNote(e.Step))
			continue
		}
		l := c.text(hostlist.Fold(hs))
		c.emit(c.st.host(l).Sprint(l) + fmt.Sprintf("  %d ", len(hs)) + show(m, hs[0], len(hs)) + " " +
			c.st.dim.Sprint("[longest "+seconds(top[m])+" elapsed]") + c.stepNote(e.Step))
	}
}

// notBusy forgets a host that finished a step.
func (c *Console) notBusy(step, host string) {
	if b := c.busy[step]; b != nil {
		delete(b.hosts, host)
	}
}
