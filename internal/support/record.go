package support

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/provadev/prova/engine/event"
	"github.com/provadev/prova/engine/module"
	"github.com/provadev/prova/parse"
)

// StepOutcome is what plan said of one runbook step on one host, in
// Root/HOST/steps.json of a bundle collected with a runbook.
type StepOutcome struct {
	Step    string `json:"step"`
	Action  string `json:"action"`
	Summary string `json:"summary,omitempty"`
	// Commands are the IDs (Result.Probe) of the commands the step ran.
	Commands []string `json:"commands,omitempty"`
}

// ErrNoWrites is what a recorded host answers to Put: a support bundle
// only reads.
var ErrNoWrites = errors.New("prova collect does not write files on hosts")

// Recorder keeps every command the hosts it wraps run while the engine
// plans a runbook (read-only steps for real, changing steps only asked
// what they would do), with its raw output, exit status and duration,
// and files them under the step the engine next reports planned on that
// host: a host plans one step at a time. It parses the outputs of the
// commands that are one of Probes (same command line) with that probe's
// parser, and refuses every file write (ErrNoWrites).
type Recorder struct {
	parsers *parse.Registry
	redact  func(string) string

	mu      sync.Mutex
	pending map[string][]Result // host -> commands not yet filed under a step
	results map[string][]Result // host -> filed commands, in order
	steps   map[string][]StepOutcome
	ids     map[string]map[string]int // host -> step -> commands so far
	down    map[string]string         // host -> why it could not be reached
}

// NewRecorder returns a recorder that parses with parsers and redacts
// every output and message with redact (nil: keep as is).
func NewRecorder(parsers *parse.Registry, redact func(string) string) *Recorder {
	if redact == nil {
		redact = func(s string) string { return s }
	}
	return &Recorder{parsers: parsers, redact: redact, pending: map[string][]Result{},
		results: map[string][]Result{}, steps: map[string][]StepOutcome{}, ids: map[string]map[string]int{},
		down: map[string]string{}}
}

// Wrap returns h recording every command it runs.
func (r *Recorder) Wrap(h module.Host) module.Host { return &recorded{Host: h, r: r} }

// Observe files the commands a host ran since its last planned step under
// the step now reported planned; other events are ignored.
func (r *Recorder) Observe(e event.Event) {
	p, ok := e.(event.PlannedHost)
	if !ok {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	out := StepOutcome{Step: p.Step, Action: string(p.Action), Summary: r.redact(p.Summary)}
	if r.ids[p.Host] == nil {
		r.ids[p.Host] = map[string]int{}
	}
	for _, res := range r.pending[p.Host] {
		r.ids[p.Host][p.Step]++
		res.Probe = fileName(p.Step) + "-" + fmt.Sprint(r.ids[p.Host][p.Step])
		res.Step = p.Step
		out.Commands = append(out.Commands, res.Probe)
		r.results[p.Host] = append(r.results[p.Host], res)
	}
	delete(r.pending, p.Host)
	r.steps[p.Host] = append(r.steps[p.Host], out)
	if p.Action == event.PlanUnreachable {
		r.down[p.Host] = r.redact(p.Summary)
	}
}

// Hosts returns, per host name, the commands recorded (those no planned
// step claimed last, under the step "(none)") and the step outcomes;
// and the hosts plan found unreachable, with the reason.
func (r *Recorder) Hosts() (map[string][]Result, map[string][]StepOutcome, map[string]string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	res := map[string][]Result{}
	for h, rs := range r.results {
		res[h] = append([]Result(nil), rs...)
	}
	for h, rs := range r.pending {
		for i, x := range rs {
			x.Probe = fmt.Sprintf("unplanned-%d", i+1)
			res[h] = append(res[h], x)
		}
	}
	steps := map[string][]StepOutcome{}
	for h, s := range r.steps {
		steps[h] = append([]StepOutcome(nil), s...)
	}
	down := map[string]string{}
	for h, why := range r.down {
		down[h] = why
	}
	return res, steps, down
}

// fileName makes a step ID ("verbs_conn.check") safe as a file name in a
// bundle.
func fileName(s string) string {
	return strings.Map(func(c rune) rune {
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', c == '.', c == '_', c == '-':
			return c
		}
		return '_'
	}, s)
}

// parserFor returns the parser of the probe whose command is cmd, "" when
// cmd is not one of Probes: a module's own command is kept raw rather
// than read by a parser chosen by resemblance.
func parserFor(cmd string) string {
	for _, p := range Probes {
		if p.Command == cmd {
			return p.Parser
		}
	}
	return ""
}

type recorded struct {
	module.Host
	r *Recorder
}

func (h *recorded) Run(ctx context.Context, cmd string, stdin io.Reader, stdout, stderr io.Writer) (int, error) {
	out, errb := module.CapBuffer{Limit: module.DefaultCaptureLimit}, module.CapBuffer{Limit: module.DefaultCaptureLimit}
	start := time.Now()
	rc, err := h.Host.Run(ctx, cmd, stdin, tee(stdout, &out), tee(stderr, &errb))
	res := Result{Command: h.r.redact(cmd), Parser: parserFor(cmd), RC: rc,
		DurationMS: float64(time.Since(start).Microseconds()) / 1000,
		Stdout:     h.r.redact(out.String()), Stderr: h.r.redact(errb.String())}
	if err != nil {
		res.Error = h.r.redact(err.Error())
	} else {
		parseInto(&res, h.r.parsers, h.r.redact)
	}
	h.r.mu.Lock()
	h.r.pending[h.Name()] = append(h.r.pending[h.Name()], res)
	h.r.mu.Unlock()
	return rc, err
}

// Put refuses: collecting never writes on a host.
func (h *recorded) Put(context.Context, string, io.Reader, fs.FileMode) error {
	return fmt.Errorf("%s: %w", h.Name(), ErrNoWrites)
}

// Get reads the file and records it as the command "get PATH".
func (h *recorded) Get(ctx context.Context, path string, w io.Writer) error {
	buf := module.CapBuffer{Limit: module.DefaultCaptureLimit}
	start := time.Now()
	err := h.Host.Get(ctx, path, tee(w, &buf))
	res := Result{Command: h.r.redact("get " + path), DurationMS: float64(time.Since(start).Microseconds()) / 1000,
		Stdout: h.r.redact(buf.String())}
	if err != nil {
		res.Error, res.RC = h.r.redact(err.Error()), 1
	}
	h.r.mu.Lock()
	h.r.pending[h.Name()] = append(h.r.pending[h.Name()], res)
	h.r.mu.Unlock()
	return err
}

// tee writes to w (when there is one) and to c.
func tee(w io.Writer, c *module.CapBuffer) io.Writer {
	if w == nil {
		return c
	}
	return io.MultiWriter(w, c)
}

// Merge adds to b, per host, the recorded commands and step outcomes of
// rec after the probes b already holds, names the runbook in the
// manifest, and lists the hosts plan could not reach.
func (b *Bundle) Merge(rec *Recorder, runbook, hash string) {
	res, steps, down := rec.Hosts()
	b.Manifest.Runbook, b.Manifest.RunbookHash = runbook, hash
	for i := range b.Hosts {
		h := &b.Hosts[i]
		h.Results = append(h.Results, res[h.Name]...)
		h.Steps = steps[h.Name]
		if why, ok := down[h.Name]; ok {
			if b.Manifest.Unreachable == nil {
				b.Manifest.Unreachable = map[string]string{}
			}
			if _, known := b.Manifest.Unreachable[h.Name]; !known {
				b.Manifest.Unreachable[h.Name] = why
			}
		}
	}
	sort.Slice(b.Hosts, func(i, j int) bool { return b.Hosts[i].Name < b.Hosts[j].Name })
}
