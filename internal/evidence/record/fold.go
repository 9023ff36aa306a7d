package record

import (
	"slices"
	"sort"

	"github.com/provadev/prova/engine/event"
)

func sortedKeys[V any](m map[string]V) []string {
	return appendSortedKeys(make([]string, 0, len(m)), m)
}

// appendSortedKeys appends m's keys to dst[:0] in the order encoding/json
// writes a map's members, and returns the slice: the JSON encoders reuse
// one slice (or one on their stack) for every map they write.
func appendSortedKeys[V any](dst []string, m map[string]V) []string {
	keys := dst[:0]
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

func indexOf(list []string) map[string]int {
	m := make(map[string]int, len(list))
	for i, s := range list {
		if _, ok := m[s]; !ok {
			m[s] = i
		}
	}
	return m
}

// ordered sorts names by their place in order, unknown names last by name.
func ordered(names []string, order []string) []string {
	idx := indexOf(order)
	rank := func(s string) int {
		if i, ok := idx[s]; ok {
			return i
		}
		return len(idx)
	}
	sort.SliceStable(names, func(i, j int) bool {
		ri, rj := rank(names[i]), rank(names[j])
		if ri != rj {
			return ri < rj
		}
		return ri == len(idx) && names[i] < names[j]
	})
	return names
}

// sortSteps puts steps in run order; steps the run did not announce keep
// the order they were first seen in, after the others.
func (w *builder) sortSteps() {
	idx := indexOf(w.stepOrder)
	rank := func(s string) int {
		if i, ok := idx[s]; ok {
			return i
		}
		return len(idx)
	}
	sort.SliceStable(w.rec.Steps, func(i, j int) bool { return rank(w.rec.Steps[i].Step) < rank(w.rec.Steps[j].Step) })
	for i, s := range w.rec.Steps {
		w.stepIdx[s.Step] = i
	}
}

// halfDone lists the steps a run that did not end normally left started
// but not finished on all their hosts.
func (w *builder) halfDone() []string {
	if w.rec.Aborted == nil && w.finished && w.rec.Status != StatusInterrupted {
		return nil // RunFinished came, nothing stopped the run
	}
	var half []string
	for _, s := range w.rec.Steps {
		if w.started[s.Step] && !s.Finished {
			half = append(half, s.Step)
		}
	}
	return half
}

// union appends to a the elements of b it lacks.
func union(a, b []string) []string {
	seen := map[string]bool{}
	for _, s := range a {
		seen[s] = true
	}
	for _, s := range b {
		if !seen[s] {
			a = append(a, s)
			seen[s] = true
		}
	}
	return a
}

func (w *builder) anyFailed() bool {
	var names []string
	for i := range w.rec.Steps {
		s := &w.rec.Steps[i]
		names = w.hostNames(names, s)
		for _, h := range names {
			if st := w.hostView(s, h).status; st == event.Failed || st == event.Unreachable {
				return true
			}
		}
	}
	return false
}

// countTallies counts outcomes per host when no RunFinished brought them.
func (w *builder) countTallies() map[string]event.Tally {
	t := map[string]event.Tally{}
	for _, h := range w.rec.Meta.Hosts {
		t[h] = event.Tally{}
	}
	var names []string
	for i := range w.rec.Steps {
		s := &w.rec.Steps[i]
		names = w.hostNames(names, s)
		for _, h := range names {
			c := t[h]
			switch w.hostView(s, h).status {
			case event.OK:
				c.OK++
			case event.Changed:
				c.Changed++
			case event.Failed:
				c.Failed++
			case event.Skipped:
				c.Skipped++
			case event.Unreachable:
				c.Unreachable++
			case event.Warned:
				c.Warned++
			}
			t[h] = c
		}
	}
	return t
}

// assertions flattens the checks of every step and host, in run order. An
// assertion step that reported no checks counts as one check named after
// the step.
func (w *builder) assertions() []Assertion {
	out := []Assertion{}
	for i := range w.rec.Steps {
		s := &w.rec.Steps[i]
		for _, h := range ordered(w.hostNames(nil, s), w.rec.Meta.Hosts) {
			r := w.hostView(s, h)
			for _, c := range r.checks {
				out = append(out, Assertion{Step: s.Step, Host: h, Name: c.Name, Measured: c.Measured,
					Threshold: c.Threshold, Verdict: c.Verdict, Message: c.Message, Severity: r.severity})
			}
			if len(r.checks) == 0 && r.severity != "" && r.status != Unfinished {
				out = append(out, Assertion{Step: s.Step, Host: h, Name: s.Step,
					Verdict: verdictOf(r.status), Message: r.message, Severity: r.severity})
			}
		}
	}
	return out
}

func verdictOf(s event.Status) string {
	switch s {
	case event.OK, event.Changed:
		return "pass"
	case event.Failed:
		return "fail"
	case event.Warned:
		return "warn"
	}
	return string(s)
}
