package ui

import (
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
