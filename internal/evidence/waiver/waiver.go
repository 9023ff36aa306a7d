package waiver

import (
	"regexp"
	"time"

	"github.com/hashicorp/hcl/v2"
)

// Waiver is one waiver block.
type Waiver struct {
	Name string
	// Assertion is a glob matched against the step ID, the check name and
	// "step/check"; "*" matches any characters, "/" included.
	Assertion string
	// Hosts are host names or globs; empty means every host.
	Hosts         []string
	Justification string
	// Expires is the first instant the waiver no longer holds: the day
	// after a plain date (UTC), or the date-time given.
	Expires time.Time
	// ExpiresText is the expiry as written in the file.
	ExpiresText string
	// DeclRange is the waiver block's header in the file.
	DeclRange hcl.Range

	// compiled globs, set by Load; Matches compiles them when nil.
	assertionRE *regexp.Regexp
	hostREs     []*regexp.Regexp
}

// Live reports whether the waiver still holds at now.
func (w *Waiver) Live(now time.Time) bool { return now.Before(w.Expires) }

// Matches reports whether the waiver names this assertion on this host.
// Patterns were checked by Load, so a bad one simply does not match.
func (w *Waiver) Matches(step, check, host string) bool {
	if !w.matchesHost(host) {
		return false
	}
	for _, s := range []string{step, check, step + "/" + check} {
		if globMatch(w.Assertion, w.assertionRE, s) {
			return true
		}
	}
	return false
}

func (w *Waiver) matchesHost(host string) bool {
	if len(w.Hosts) == 0 {
		return true
	}
	for i, p := range w.Hosts {
		var re *regexp.Regexp
		if i < len(w.hostREs) {
			re = w.hostREs[i]
		}
		if globMatch(p, re, host) {
			return true
		}
	}
	return false
}

// Set is the content of one waiver file.
type Set struct {
	// File is the file name, Source its content (for diagnostic snippets).
	File    string
	Source  []byte
	Waivers []*Waiver
}
