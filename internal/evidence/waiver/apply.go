package waiver

import (
	"time"

	"github.com/provadev/prova/internal/evidence/record"
)

// Verdicts a waiver can turn into "waived", and the verdict it gives.
const (
	VerdictFail   = "fail"
	VerdictWarn   = "warn"
	VerdictWaived = "waived"
)

// Outcome is one assertion after waivers: the assertion with its final
// verdict, and the waiver that changed it or that expired before it could.
type Outcome struct {
	record.Assertion
	// Original is the verdict before waivers.
	Original string `json:"original_verdict,omitempty"`
	// Waiver is the live waiver that waived the assertion.
	Waiver *Waiver `json:"-"`
	// Expired is an expired waiver that matched a failure, which stands.
	Expired *Waiver `json:"-"`
}

// Result is the outcome of Apply.
type Result struct {
	// Outcomes has one entry per assertion, in the order given.
	Outcomes []Outcome
	// Unused are the waivers, live or expired, that matched no failed or
	// warned assertion.
	Unused []*Waiver
	// Expired are the expired waivers that matched a failure.
	Expired []*Waiver
}

// Apply applies the waivers to assertions at time now. A failed or warned
// assertion matched by a live waiver (the first in file order) becomes
// "waived"; one matched only by expired waivers keeps its verdict and
// notes the first of them. A nil set changes nothing.
func (s *Set) Apply(assertions []record.Assertion, now time.Time) Result {
	var res Result
	used := map[*Waiver]bool{}
	for _, a := range assertions {
		o := Outcome{Assertion: a, Original: a.Verdict}
		if s != nil && (a.Verdict == VerdictFail || a.Verdict == VerdictWarn) {
			for _, w := range s.Waivers {
				if !w.Matches(a.Step, a.Name, a.Host) {
					continue
				}
				used[w] = true
				if w.Live(now) {
					o.Waiver, o.Expired = w, nil
					o.Verdict = VerdictWaived
					break
				}
				if o.Expired == nil {
					o.Expired = w
				}
			}
		}
		res.Outcomes = append(res.Outcomes, o)
	}
	if s == nil {
		return res
	}
	for _, w := range s.Waivers {
		switch {
		case !used[w]:
			res.Unused = append(res.Unused, w)
		case !w.Live(now):
			res.Expired = append(res.Expired, w)
		}
	}
	return res
}

// ExpiredOn is the last day an expired waiver held, as a date (UTC), or
// the date-time it ended when it was given one.
func (w *Waiver) ExpiredOn() string {
	if _, err := time.Parse(time.DateOnly, w.ExpiresText); err == nil {
		return w.ExpiresText
	}
	return w.Expires.UTC().Format(time.RFC3339)
}
