package ui

import (
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/provadev/prova/engine/event"
)

// tailLines is how many output lines per stream are kept for a host, to
// show when the step fails there.
const tailLines = 10

type tail struct{ stdout, stderr []string }

func (t *tail) add(stream, line string) {
	p := &t.stdout
	if stream == "stderr" {
		p = &t.stderr
	}
	*p = append(*p, line)
	if len(*p) > tailLines {
		*p = (*p)[len(*p)-tailLines:]
	}
}

func (c *Console) runStarted(e event.RunStarted) {
	c.mode, c.runID, c.runbook, c.failRule = e.Mode, e.RunID, e.Runbook, e.FailRule
	c.hosts = append([]string(nil), e.Hosts...)
	c.steps = append([]string(nil), e.Steps...)
	for _, h := range e.Hosts {
		c.hostW = max(c.hostW, utf8.RuneCountInString(c.red.String(h)))
	}
	verb := "Applying"
	if e.Mode == "plan" {
		verb = "Planning"
	}
	line := c.st.bold.Sprintf("%s %s on %s, %s", verb, c.text(e.Runbook),
		plural(len(e.Hosts), "host", "hosts"), plural(len(e.Steps), "step", "steps"))
	if e.RunID != "" {
		line += c.st.dim.Sprint(" (run " + c.text(e.RunID) + ")")
	}
	c.emit(line)
	if e.FailRule != "" && e.Mode != "plan" {
		c.emit("Failure rule: " + c.text(e.FailRule))
	}
}

func (c *Console) stepStarted(e event.StepStarted) {
	if c.mode != "plan" {
		c.flushAll() // a step (or batch) that ran before is complete on screen
	}
	c.curStep = e.Step
	if c.mode == "plan" {
		return
	}
	if c.skips == nil {
		c.skips = map[string]*skipTally{}
	}
	if c.skips[e.Step] == nil {
		c.skips[e.Step] = &skipTally{}
	}
	c.skips[e.Step].hosts += len(e.Hosts)
	c.skips[e.Step].batch = len(e.Hosts)
	what := plural(len(e.Hosts), "host", "hosts")
	if e.Batch > 0 {
		what = fmt.Sprintf("batch %d, %s", e.Batch, what)
	}
	c.header(fmt.Sprintf("step %s (%s)", c.text(e.Step), what))
}

func (c *Console) output(e event.Output) {
	k := key{e.Step, e.Host}
	for _, l := range strings.Split(strings.TrimSuffix(e.Line, "\n"), "\n") {
		l = c.text(l)
		if c.verbose {
			c.emit(c.hostCol(e.Host) + c.st.dim.Sprint(" | ") + l)
			continue
		}
		t := c.tails[k]
		if t == nil {
			t = &tail{}
			c.tails[k] = t
		}
		t.add(e.Stream, l)
	}
}

func (c *Console) retry(e event.Retry) {
	if !c.verbose {
		c.groupRetry(e) // one line per reason at the step's end (group.go)
		return
	}
	c.emit(c.hostCol(e.Host) + "  " + c.st.retry.Sprintf("attempt %d failed", e.Attempt) +
		c.stepNote(e.Step) + ": " + c.text(e.Reason) + "; retrying in " + duration(e.Delay))
}

// stepNote names the step when it is not the one whose header is shown.
func (c *Console) stepNote(step string) string {
	if step == "" || c.curStep == "" || step == c.curStep {
		return ""
	}
	return c.st.dim.Sprint(" [" + c.text(step) + "]")
}

func (c *Console) hostFinished(e event.HostFinished) {
	k := key{e.Step, e.Host}
	c.dropStatus(e.Host)
	c.notBusy(e.Step, e.Host)
	c.notice(e)
	if e.Status == event.Skipped && !c.verbose {
		// Skipped hosts are summed up in one line at the step's end (-v
		// lists them).
		if t := c.skips[e.Step]; t != nil {
			t.add(e.Host, e.Message)
			delete(c.progress, k)
			delete(c.tails, k)
			return
		}
	}
	delete(c.progress, k)
	t := c.tails[k]
	delete(c.tails, k)
	en := c.entry(e, t)
	if !c.verbose && c.mode != "plan" {
		p := c.pending[e.Step]
		if p == nil {
			// sized for the batch's hosts (flushed at the next batch):
			// growing it by appending copied every entry about twice
			// over at 200 hosts
			n := 0
			if t := c.skips[e.Step]; t != nil {
				n = t.batch
			}
			p = make([]hostEntry, 0, max(n, 1))
		}
		c.pending[e.Step] = append(p, en) // grouped at the step's end
		return
	}
	c.emitEntry(en)
}

// hostEntry is one host's result line of a step, with what follows it,
// rendered but not yet written.
type hostEntry struct {
	step, host string
	status     event.Status
	word       string   // the coloured status word
	msg        []string // message lines, redacted and cleaned
	checks     []string // assertion lines worth showing
	tail       []string // the command's last output lines, when it failed
	diags      string   // rendered diagnostics
	dur        time.Duration
	gaveUp     bool          // until ran out (event.HostFinished.GaveUp)
	retried    time.Duration // the retry delay, when absorbed is set
	absorbed   bool          // the result line says the retries (absorbRetries)
}

// retriedNote is "; retried every 10.0s" for an entry whose retries are
// said on its result line.
func (en hostEntry) retriedNote() string {
	if !en.absorbed {
		return ""
	}
	return "; retried every " + duration(en.retried)
}

func (c *Console) entry(e event.HostFinished, t *tail) hostEntry {
	word := c.statusWord(e.Status)
	en := hostEntry{step: e.Step, host: e.Host, status: e.Status, word: word, dur: e.Duration, gaveUp: e.GaveUp}
	message := e.Message
	if e.GaveUp && e.Status != event.Failed {
		// until ran out and failed_when kept the host's status: it gave up
		// waiting, in its own words and colour, not "ok".
		en.word = c.st.gaveUp.Sprint("gave up waiting")
		message = strings.TrimPrefix(message, "gave up waiting: ")
	}
	// In the summary a warning's diagnostic is left out (its message is on
	// its line; -v shows the source and values); a failure's is shown.
	showDiags := len(e.Diagnostics) > 0 && (c.verbose || e.Status != event.Warned)
	if showDiags && e.Status == event.Failed {
		// The diagnostic below carries the message with its source line and
		// the values involved; say so instead of printing it twice.
		message = e.Diagnostics[0].Summary + " (below)"
	}
	for _, m := range lines(c.red.String(message)) {
		en.msg = append(en.msg, clean(m))
	}
	// A check that did not pass is worth a line where it decided the
	// host's status; on a host that is ok it is information (a diagnosis
	// step records findings that a later assertion acts on): -v shows it.
	judged := e.Status == event.Failed || e.Status == event.Warned
	for _, ch := range e.Checks {
		if !c.verbose && (ch.Verdict == "pass" || !judged || len(e.Diagnostics) > 0 && ch.Message == e.Message) {
			continue
		}
		en.checks = append(en.checks, c.check(ch))
	}
	if t != nil && (e.Status == event.Unreachable || e.Status == event.Failed && commandFailed(e.Result)) {
		en.tail = t.stderr
		if len(en.tail) == 0 {
			en.tail = t.stdout
		}
	}
	if showDiags {
		en.diags = c.renderDiags(e.Diagnostics)
	}
	return en
}

// emitEntry writes one host's entry (-v, plan, a group of one); in the
// summary, lists of host names in its text are folded.
func (c *Console) emitEntry(en hostEntry) {
	if !c.verbose && c.mode != "plan" {
		fold := func(l []string) []string {
			out := make([]string, len(l))
			for i, s := range l {
				out[i] = c.generic(en.host, s, false)
			}
			return out
		}
		en.msg, en.checks, en.tail = fold(en.msg), fold(en.checks), fold(en.tail)
		if en.diags != "" {
			en.diags = strings.Join(fold(strings.Split(en.diags, "\n")), "\n")
		}
	}
	line := c.hostCol(en.host) + "  " + en.word
	if len(en.msg) > 0 {
		line += ": " + en.msg[0]
	}
	line += en.retriedNote() + c.stepNote(en.step)
	if en.dur > 0 {
		line += c.st.dim.Sprint(" (" + duration(en.dur) + ")")
	}
	out := []string{line}
	for _, m := range en.msg[min(1, len(en.msg)):] {
		out = append(out, c.blankCol()+"  "+m)
	}
	for _, ch := range en.checks {
		out = append(out, c.blankCol()+"    "+ch)
	}
	for _, l := range en.tail {
		out = append(out, c.hostCol(en.host)+c.st.dim.Sprint(" | ")+l)
	}
	c.emit(out...)
	if en.diags != "" {
		c.emit("")
		c.emitBlock(en.diags)
		c.emit("")
	}
}

// check renders one assertion: verdict, name, measured value, threshold.
func (c *Console) check(ch event.Check) string {
	v := c.text(ch.Verdict)
	switch ch.Verdict {
	case "pass":
		v = c.st.ok.Sprint(v)
	case "fail":
		v = c.st.failed.Sprint(v)
	case "warn":
		v = c.st.warn.Sprint(v)
	default:
		v = c.st.skipped.Sprint(v)
	}
	s := fmt.Sprintf("%s %s = %s", v, c.text(ch.Name), c.text(ch.Measured))
	if ch.Threshold != "" {
		s += " (threshold " + c.text(ch.Threshold) + ")"
	}
	if ch.Message != "" {
		s += ": " + c.text(ch.Message)
	}
	return s
}

func (c *Console) warning(e event.Warning) {
	w := c.st.warn.Sprint("Warning") + ": " + c.text(e.Message)
	if e.Host != "" {
		c.emit(c.hostCol(e.Host) + "  " + w)
		return
	}
	c.emit(w)
}

func (c *Console) abort(e event.Aborted) {
	c.aborted = &e
	c.flushAll()
	c.flushPlans()
	c.status = nil
	if c.mode == "plan" {
		// The plan stops where apply would stop.
		c.emit("", c.st.failed.Sprint("Apply would stop here")+": "+c.text(e.Reason))
	} else {
		c.emit("", c.st.failed.Sprint("Aborted")+": "+c.text(e.Reason))
	}
	if len(e.HalfDone) > 0 {
		names := make([]string, len(e.HalfDone))
		for i, s := range e.HalfDone {
			names[i] = c.text(s)
		}
		c.emit("Half-done steps (started on some hosts, not finished on all): " + strings.Join(names, ", "))
	}
}

// commandFailed reports whether the step's main command exited non-zero
// (or its status is unknown): only then is its output tail worth showing.
// A step that failed with status 0 failed on a condition (until,
// failed_when, a module's verdict), which its message explains.
func commandFailed(result map[string]any) bool {
	rc, ok := result["rc"].(float64)
	return !ok || rc != 0
}

// skipTally counts a step's skipped hosts and their reasons.
type skipTally struct {
	hosts, skipped int
	batch          int // hosts of the step's current batch (all of them unbatched)
	names, reasons []string
}

func (t *skipTally) add(host, reason string) {
	t.skipped++
	t.names = append(t.names, host)
	for _, r := range t.reasons {
		if r == reason {
			return
		}
	}
	t.reasons = append(t.reasons, reason)
}

// flushSkips prints the step's skipped hosts as one line.
func (c *Console) flushSkips(step string) {
	t := c.skips[step]
	delete(c.skips, step)
	if t == nil || t.skipped == 0 {
		return
	}
	who := plural(t.skipped, "host", "hosts") + " skipped"
	switch {
	case t.skipped == t.hosts && t.hosts > 1:
		who = fmt.Sprintf("all %d hosts skipped", t.hosts)
	case t.skipped <= 3:
		who = strings.Join(t.names, ", ") + " skipped"
	}
	c.emit(c.blankCol() + "  " + c.st.skipped.Sprint(who) + ": " + c.text(strings.Join(t.reasons, "; ")))
}

// statusWord is the coloured word for a host's status.
func (c *Console) statusWord(st event.Status) string {
	switch st {
	case event.OK:
		return c.st.ok.Sprint("ok")
	case event.Changed:
		return c.st.changed.Sprint("changed")
	case event.Failed:
		return c.st.failed.Sprint("FAILED")
	case event.Skipped:
		return c.st.skipped.Sprint("skipped")
	case event.Unreachable:
		return c.st.failed.Sprint("UNREACHABLE")
	case event.Warned:
		return c.st.warn.Sprint("warn")
	}
	return c.text(string(st))
}
