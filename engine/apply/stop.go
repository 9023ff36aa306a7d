package apply

import (
	"fmt"

	"github.com/provadev/prova/engine/event"
	"github.com/provadev/prova/engine/program"
)

// stop is why a run ends before its last step; the zero value means it
// goes on.
type stop struct {
	cause event.AbortCause
	// reason is the sentence shown to the operator.
	reason string
}

func (s stop) stops() bool { return s.cause != "" }

// failed reports whether the stop makes the run a failure: running out of
// hosts is not one by itself (the hosts' own failures are).
func (s stop) failed() bool { return s.stops() && s.cause != event.AbortNoHosts }

var interrupted = stop{cause: event.AbortInterrupted, reason: "interrupted"}

func invalidStep(s *program.Step, what string) stop {
	return stop{cause: event.AbortInvalidStep, reason: "step " + s.ID() + " has invalid " + what}
}

// maxFail is the one place that decides max_fail_percentage: the run stops
// when the share of the step's hosts that failed so far exceeds the step's
// limit (negative: unset, never).
func maxFail(s *program.Step, m program.Meta, failed, total int) stop {
	if m.MaxFailPercentage < 0 || total == 0 || float64(failed)*100/float64(total) <= m.MaxFailPercentage {
		return stop{}
	}
	return stop{cause: event.AbortMaxFail, reason: fmt.Sprintf("step %s: %d of %d hosts failed, more than max_fail_percentage = %g",
		s.ID(), failed, total, m.MaxFailPercentage)}
}
