package ui

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"

	"github.com/provadev/prova/engine/event"
	"github.com/provadev/prova/internal/evidence/findings"
	"github.com/provadev/prova/internal/redact"
)

// Console renders events for people. It is an event.Observer, safe for
// concurrent use: every event is handled under one mutex and written
// through one sink, so lines of different hosts never interleave.
type Console struct {
	mu      sync.Mutex
	w       io.Writer
	err     error
	st      *styles
	color   bool
	term    bool // the writer is a terminal that understands cursor moves
	verbose bool
	red     *redact.Redactor
	width   int
	diags   *diagFiles

	mode, runID, runbook, failRule string
	hosts                          []string        // in run order
	known                          map[string]bool // hosts, built by generic
	hostW                          int
	steps                          []string
	curStep                        string
	wrote                          bool

	tails    map[key]*tail
	progress map[key]float64 // last printed Elapsed (not a terminal)
	status   []statusLine    // live status block (terminal)
	drawn    int             // lines of the status block on screen

	plans     map[string][]event.PlannedHost
	planOrder []string
	skips     map[string]*skipTally          // apply: hosts skipped per step, summed up at its end
	pending   map[string][]hostEntry         // apply: host results per step, grouped at its end
	retries   map[string]*retryTally         // apply: retries per step, grouped at its end
	dropped   map[string][]event.HostDropped // apply: per step, grouped at its end
	busy      map[string]*busyStep           // apply, not a terminal: hosts still running per step
	find      *findings.Collector            // failed and warned hosts, for the Findings block
	keyBuf    []byte                         // flushGroups' group keys, made one at a time
	planSeen  planCounts
	aborted   *event.Aborted
}

// maxStatus is how many hosts the live status block shows at most.
const maxStatus = 8

type key struct{ step, host string }

// NewConsole returns a Console writing to w. An invalid opts.Color is
// treated as "auto"; use UseColor to validate a flag first.
func NewConsole(w io.Writer, opts Options) *Console {
	on, _ := UseColor(opts.Color, opts.Env, opts.IsTerminal)
	return &Console{
		w:        w,
		st:       newStyles(on),
		color:    on,
		term:     opts.IsTerminal && getenv(opts.Env, "TERM") != "dumb",
		verbose:  opts.Verbose,
		red:      opts.Redact,
		width:    opts.Width,
		diags:    newDiagFiles(opts.Sources),
		tails:    map[key]*tail{},
		progress: map[key]float64{},
		plans:    map[string][]event.PlannedHost{},
		pending:  map[string][]hostEntry{},
		retries:  map[string]*retryTally{},
		dropped:  map[string][]event.HostDropped{},
		find:     findings.NewCollector(),
	}
}

// Err returns the first error met writing to the sink.
func (c *Console) Err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.err
}

// Close clears a live status block, if any, and returns Err.
func (c *Console) Close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.status = nil
	c.emit()
	return c.err
}

// Observe renders one event.
func (c *Console) Observe(e event.Event) {
	if !c.term {
		switch e.(type) {
		case event.HostStarted, *event.HostStarted:
			// Shown only as a terminal's status line (c.term is fixed
			// at NewConsole): no need to take the mutex that every
			// worker of a fan-out takes for its host's result.
			return
		}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	switch e := event.Value(e).(type) {
	case event.RunStarted:
		c.runStarted(e)
	case event.StepStarted:
		c.stepStarted(e)
	case event.Output:
		c.output(e)
	case event.HostStarted:
		// On a terminal, every busy host has a status line from the start;
		// progress and heartbeat events then update its elapsed time.
		if c.term {
			c.showProgress(event.Progress{Step: e.Step, Host: e.Host, Message: "running " + e.Step})
		}
	case event.Progress:
		c.showProgress(e)
	case event.Retry:
		c.retry(e)
	case event.HostFinished:
		c.hostFinished(e)
	case event.StepFinished:
		if c.mode == "plan" {
			c.flushPlan(e.Step)
		} else {
			c.flushGroups(e.Step)
			c.flushSkips(e.Step)
		}
	case event.PlannedHost:
		c.planned(e)
	case event.HostDropped:
		c.dropStatus(e.Host)
		if !c.verbose && c.mode != "plan" && e.Step != "" {
			c.dropped[e.Step] = append(c.dropped[e.Step], e) // grouped at the step's end
			break
		}
		c.emit(c.hostCol(e.Host) + "  " + c.st.failed.Sprint("dropped from the run") + ": " + c.text(e.Reason))
	case event.Warning:
		c.warning(e)
	case event.Lock:
		c.lock(e)
	case event.Aborted:
		c.abort(e)
	case event.RunFinished:
		c.runFinished(e)
	}
}

// text redacts and cleans one piece of text for a single line.
func (c *Console) text(s string) string {
	return clean(c.red.String(s))
}

// hostCol is the host name, coloured, padded to the host column.
func (c *Console) hostCol(h string) string {
	h = c.red.String(h)
	return c.st.host(h).Sprint(h) + pad("", c.hostW-len([]rune(h)))
}

// blankCol is an empty host column, for lines continuing a host's entry.
func (c *Console) blankCol() string { return pad("", c.hostW) }

// emit writes lines (each without newline) below the output so far: a live
// status block is erased first and drawn again after. Every line is
// redacted once more as a last guard.
func (c *Console) emit(lines ...string) {
	var b strings.Builder
	if c.drawn > 0 {
		// Back to the first status line, erase to the end of the screen.
		b.WriteString("\r\x1b[" + strconv.Itoa(c.drawn) + "A\x1b[J")
		c.drawn = 0
	}
	for _, l := range lines {
		b.WriteString(c.red.String(l))
		b.WriteByte('\n')
	}
	if len(lines) > 0 {
		c.wrote = true
	}
	if c.term {
		for i, s := range c.status {
			if i == maxStatus {
				b.WriteString(fmt.Sprintf("%s  ... and %d more in progress\n", c.blankCol(), len(c.status)-i))
				c.drawn++
				break
			}
			b.WriteString(c.red.String(s.render(c)))
			b.WriteByte('\n')
			c.drawn++
		}
	}
	if b.Len() == 0 || c.err != nil {
		return
	}
	if _, err := io.WriteString(c.w, b.String()); err != nil {
		c.err = err
	}
}

// emitBlock writes pre-rendered multi-line text.
func (c *Console) emitBlock(s string) {
	if s == "" {
		return
	}
	c.emit(strings.Split(strings.TrimRight(s, "\n"), "\n")...)
}

// header starts a section, after a blank line when something came before.
func (c *Console) header(s string) {
	if c.wrote {
		c.emit("")
	}
	c.emit(c.st.header.Sprint("== " + s))
}
