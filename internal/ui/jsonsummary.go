package ui

import (
	"time"

	"github.com/provadev/prova/engine/event"
	"github.com/provadev/prova/internal/evidence/findings"
)

// Summary is the last event of prova --json: the run's verdict and every
// failed and warned host with its step, cause and message, so that CI
// reads one line instead of the whole stream. Its type is "summary".
type Summary struct {
	RunID  string `json:"run_id"`
	Mode   string `json:"mode"`
	Status string `json:"status"` // ok, failed (or changes, for a plan with changes)
	Hosts  int    `json:"hosts"`
	// Failed lists failed and unreachable host-steps; Warned the warned
	// ones (assertions with severity = "warn").
	Failed []findings.Finding `json:"failed"`
	Warned []findings.Finding `json:"warned"`
	// Causes groups the findings by cause, fewest hosts first.
	Causes []findings.Group `json:"causes"`
	Time   time.Time        `json:"time"`
}

// Kind is "summary".
func (Summary) Kind() string { return "summary" }

func (j *JSON) summary(rf event.RunFinished) Summary {
	fs := j.found.Findings()
	failed, warned := findings.Split(fs)
	s := Summary{RunID: rf.RunID, Mode: rf.Mode, Hosts: len(rf.Hosts), Failed: failed, Warned: warned,
		Causes: findings.ByCause(fs), Time: rf.Time}
	switch {
	case rf.Failed:
		s.Status = "failed"
	case rf.Mode == "plan" && rf.Changes > 0:
		s.Status = "changes"
	default:
		s.Status = "ok"
	}
	if s.Failed == nil {
		s.Failed = []findings.Finding{}
	}
	if s.Warned == nil {
		s.Warned = []findings.Finding{}
	}
	if s.Causes == nil {
		s.Causes = []findings.Group{}
	}
	return s
}
