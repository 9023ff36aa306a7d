package event

import (
	"strings"
	"time"

	"github.com/hashicorp/hcl/v2"
)

// Event is one thing that happened. Every event type has a Kind used as the
// "type" field of the JSON-lines stream.
type Event interface{ Kind() string }

// Observer receives events. Calls come from many goroutines; an observer
// must be safe for concurrent use and must not block for long.
type Observer interface{ Observe(Event) }

// Func adapts a function to Observer.
type Func func(Event)

// Observe calls f(e).
func (f Func) Observe(e Event) { f(e) }

// Multi fans events out to several observers in order.
type Multi []Observer

// Observe passes e to every observer.
func (m Multi) Observe(e Event) {
	for _, o := range m {
		o.Observe(e)
	}
}

// RunStarted opens a plan or apply.
type RunStarted struct {
	RunID   string    `json:"run_id"`
	Mode    string    `json:"mode"` // "plan" or "apply"
	Runbook string    `json:"runbook"`
	Hosts   []string  `json:"hosts"`
	Steps   []string  `json:"steps"`
	Time    time.Time `json:"time"`
	// FailRule is the max_fail_percentage rule in words, printed with the plan.
	FailRule string `json:"fail_rule,omitempty"`
}

// StepStarted: a step begins on the listed hosts.
type StepStarted struct {
	Step   string   `json:"step"` // "<module>.<name>"
	Module string   `json:"module"`
	Name   string   `json:"name"`
	Hosts  []string `json:"hosts"`
	Batch  int      `json:"batch,omitempty"` // serial batch number, 1-based
}

// HostStarted: a step begins on one host.
type HostStarted struct {
	Step string `json:"step"`
	Host string `json:"host"`
}

// Output is what a command printed on a host: the whole lines that arrived
// together (one read from the connection), in order. The engine emits one
// Output per chunk, not per line, so that a tool printing thousands of
// lines costs a few events; a line is never split between two events
// unless it is longer than 64 KiB.
type Output struct {
	Step   string `json:"step"`
	Host   string `json:"host"`
	Stream string `json:"stream"` // "stdout" or "stderr"
	// Line holds one or more lines joined by "\n", without the final
	// newline and without carriage returns at line ends. Use Lines to
	// split it.
	Line string `json:"line"`
}

// Lines returns the lines of the chunk.
func (o Output) Lines() []string { return strings.Split(o.Line, "\n") }

// Progress is the state of a long operation on a host.
type Progress struct {
	Step      string  `json:"step"`
	Host      string  `json:"host"`
	Message   string  `json:"message,omitempty"`
	Elapsed   float64 `json:"elapsed_s"`
	Remaining float64 `json:"remaining_s,omitempty"`
}

// Retry: an attempt failed and the step will be retried after Delay.
type Retry struct {
	Step    string        `json:"step"`
	Host    string        `json:"host"`
	Attempt int           `json:"attempt"`
	Delay   time.Duration `json:"delay_ns"`
	Reason  string        `json:"reason"`
}

// Status is the outcome of a step on a host.
type Status string

// Outcomes of a step on a host.
const (
	OK          Status = "ok"
	Changed     Status = "changed"
	Failed      Status = "failed"
	Skipped     Status = "skipped"
	Unreachable Status = "unreachable"
	Warned      Status = "warn" // an assertion with severity = "warn" did not hold
)

// HostFinished: a step ended on one host.
type HostFinished struct {
	Step     string        `json:"step"`
	Host     string        `json:"host"`
	Status   Status        `json:"status"`
	Message  string        `json:"message,omitempty"`
	Duration time.Duration `json:"duration_ns"`
	// Diagnostics explain a failed assertion or argument error; rendered
	// with source snippets by the console.
	Diagnostics hcl.Diagnostics `json:"-"`
	// Result is the step result object as JSON (module outputs included).
	Result map[string]any `json:"result,omitempty"`
	// Evidence holds raw tool outputs kept in the run record.
	Evidence map[string]string `json:"evidence,omitempty"`
	// Checks are the assertions evaluated by the step on this host.
	Checks []Check `json:"checks,omitempty"`
	// Severity is "fail" or "warn" for assertion steps.
	Severity string `json:"severity,omitempty"`
	// GaveUp says the step's until was still false after its last
	// attempt. Status is unchanged by it: Failed, or what failed_when
	// decided.
	GaveUp bool `json:"gave_up,omitempty"`
}

// Check is one evaluated assertion with its measured value, threshold and
// verdict (pass, fail, warn, waived).
type Check struct {
	Name      string `json:"name"`
	Measured  string `json:"measured"`
	Threshold string `json:"threshold,omitempty"`
	Verdict   string `json:"verdict"`
	Message   string `json:"message,omitempty"`
}

// StepFinished: a step ended on all its hosts.
type StepFinished struct {
	Step     string        `json:"step"`
	Duration time.Duration `json:"duration_ns"`
}

// PlannedHost is the plan of one step on one host.
type PlannedHost struct {
	Step    string     `json:"step"`
	Host    string     `json:"host"`
	Action  PlanAction `json:"action"`
	Symbol  string     `json:"symbol"`
	Summary string     `json:"summary,omitempty"`
	Changes []Change   `json:"changes,omitempty"`
	// Destructive, when not empty, says why the step would destroy data on
	// the host (the console shows it in red).
	Destructive string `json:"destructive,omitempty"`
	// Diagnostics explain a PlanWouldFail or PlanError as apply would print
	// them.
	Diagnostics hcl.Diagnostics `json:"-"`
}

// Change is one attribute-level change in a plan.
type Change struct {
	Name string `json:"name"`
	From string `json:"from"`
	To   string `json:"to"`
}

// HostDropped: a host leaves the run after a failure or when unreachable.
type HostDropped struct {
	Step   string `json:"step"`
	Host   string `json:"host"`
	Reason string `json:"reason"`
}

// Aborted: the run stops (on_failure = abort, max_fail_percentage exceeded,
// or interrupted). HalfDone lists steps that started on some hosts but did
// not finish on all.
type Aborted struct {
	Cause    AbortCause `json:"cause,omitempty"`
	Reason   string     `json:"reason"`
	HalfDone []string   `json:"half_done,omitempty"`
}

// Tally counts outcomes for one host over the run.
type Tally struct {
	OK          int `json:"ok"`
	Changed     int `json:"changed"`
	Failed      int `json:"failed"`
	Skipped     int `json:"skipped"`
	Unreachable int `json:"unreachable"`
	Warned      int `json:"warned"`
}

// RunFinished closes a run with per-host tallies.
type RunFinished struct {
	RunID   string           `json:"run_id"`
	Mode    string           `json:"mode"`
	Hosts   map[string]Tally `json:"hosts"`
	Failed  bool             `json:"failed"`
	Changes int              `json:"changes"` // plan: hosts x steps with a change
	// WouldFail counts, in plan, the hosts x steps apply would certainly
	// fail (would fail, error, unreachable).
	WouldFail int           `json:"would_fail,omitempty"`
	Duration  time.Duration `json:"duration_ns"`
	Time      time.Time     `json:"time"`
}

// Warning is a non-fatal notice (insecure host-key policy, skipped Match
// block, expired waiver...).
type Warning struct {
	Host    string `json:"host,omitempty"`
	Message string `json:"message"`
}

// Lock: the run's cluster lock was acquired, refused or released.
type Lock struct {
	Action  string `json:"action"` // acquired, refused, released, skipped
	Step    string `json:"step,omitempty"`
	Where   string `json:"where,omitempty"` // host:path
	Message string `json:"message,omitempty"`
}

func (Lock) Kind() string { return "lock" }

func (RunStarted) Kind() string   { return "run_started" }
func (StepStarted) Kind() string  { return "step_started" }
func (HostStarted) Kind() string  { return "host_started" }
func (Output) Kind() string       { return "output" }
func (Progress) Kind() string     { return "progress" }
func (Retry) Kind() string        { return "retry" }
func (HostFinished) Kind() string { return "host_finished" }
func (StepFinished) Kind() string { return "step_finished" }
func (PlannedHost) Kind() string  { return "planned" }
func (HostDropped) Kind() string  { return "host_dropped" }
func (Aborted) Kind() string      { return "aborted" }
func (RunFinished) Kind() string  { return "run_finished" }
func (Warning) Kind() string      { return "warning" }

// Value returns the event a pointer points to, so that observers handle
// events passed either way (the engine passes values).
func Value(e Event) Event {
	switch p := e.(type) {
	case *RunStarted:
		return *p
	case *StepStarted:
		return *p
	case *HostStarted:
		return *p
	case *Output:
		return *p
	case *Progress:
		return *p
	case *Retry:
		return *p
	case *HostFinished:
		return *p
	case *StepFinished:
		return *p
	case *PlannedHost:
		return *p
	case *HostDropped:
		return *p
	case *Aborted:
		return *p
	case *RunFinished:
		return *p
	case *Warning:
		return *p
	case *Lock:
		return *p
	}
	return e
}
