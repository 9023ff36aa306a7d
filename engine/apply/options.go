package apply

import (
	"fmt"
	"time"

	"github.com/provadev/prova/engine/event"
	"github.com/provadev/prova/engine/module"
)

// Mode is plan or apply.
type Mode string

// Modes.
const (
	ModePlan  Mode = "plan"
	ModeApply Mode = "apply"
)

// Inventory is what the runner needs of the inventory.
type Inventory interface {
	// Names returns every host name in inventory order.
	Names() []string
	// SelectNames resolves a host pattern to host names in inventory
	// order.
	SelectNames(pattern string) ([]string, error)
}

// Options configure a run.
type Options struct {
	Mode  Mode
	RunID string
	// Forks bounds how many hosts run a step at once (default 50).
	Forks int
	// Host returns the transport for a host name; connections are the
	// caller's to reuse and close.
	Host func(name string) module.Host
	// Become wraps a host so commands run as user via sudo ("" = root).
	Become func(h module.Host, user string) module.Host
	// Strategy is Linear (default) or Free.
	Strategy string
	// Tags and SkipTags select steps by their tags.
	Tags, SkipTags []string
	Observer       event.Observer
	// Expect, when set, is a saved plan: apply re-probes first and refuses
	// if any host's plan differs.
	Expect []event.PlannedHost
	// Redact, when set, hides sensitive values; a saved plan holds redacted
	// text, so the re-probed plan is redacted the same way before the two
	// are compared.
	Redact func(string) string
	// Halt, when set, is asked before each step and each host-step starts;
	// a non-empty answer stops the run there, as an abort with that
	// reason: host-steps in flight finish, nothing new starts. The CLI
	// uses it when the run record can no longer be written.
	Halt func() string
	// AllowDestructive reports whether the command line allows steps that
	// destroy data on a host (--allow-destructive); nil allows none. A
	// destructive step also needs destructive = true in the runbook.
	AllowDestructive func(host string) bool
	// StepTimeout bounds each attempt of a step that sets no timeout of
	// its own (0: no bound); StepTimeoutFrom names where it was set, for
	// the message when it runs out ("--step-timeout", ...).
	StepTimeout     time.Duration
	StepTimeoutFrom string
	// Lock, when set, is taken before the first change and held to the
	// end of the run (apply mode only); see Lock.
	Lock Lock
}

// DefaultStepTimeout bounds each attempt of a step when neither the step,
// the runbook (step_timeout) nor --step-timeout says otherwise: no hung
// command blocks a run forever.
const DefaultStepTimeout = 30 * time.Minute

// DefaultForks is the default bound on concurrent hosts per step.
const DefaultForks = 50

// FailRule is the failure rule in words, printed with every plan.
func FailRule() string {
	return "a host whose step fails drops out of later steps (on_failure = \"continue\" keeps it); " +
		"an unreachable host drops out; the run stops when a step's failed share of hosts exceeds its " +
		"max_fail_percentage (unset: never), or when no host is left"
}

// DriftError is returned when a saved plan no longer matches the hosts.
type DriftError struct {
	Drifted []string // "step on host: planned X, now Y"
}

func (e *DriftError) Error() string {
	return fmt.Sprintf("the hosts drifted since the plan was saved (%d difference(s)); run plan again", len(e.Drifted))
}
