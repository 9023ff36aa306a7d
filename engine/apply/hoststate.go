package apply

import (
	"sync"
	"sync/atomic"

	"github.com/zclconf/go-cty/cty"

	"github.com/provadev/prova/engine/event"
)

// hostState is one host's part of a run: whether it is still in it and
// its tally. Each host has a lock of its own: the workers of a fan-out
// record their hosts' outcomes without waiting on each other (with one
// lock for the run, 50 workers queued on it at every host-step).
type hostState struct {
	mu     sync.Mutex
	active bool
	tally  event.Tally
	// name is the host's name as its results' JSON has it (NFC, as
	// cty.StringVal makes it), boxed once rather than at every host-step.
	name any
	// stream is the host's streaming host between its steps (hostFor,
	// keepHost); nil while a step has it.
	stream atomic.Pointer[streamingHost]
}

func newHostState(name string, active bool) *hostState {
	return &hostState{active: active, name: cty.NormalizeString(name)}
}

// hostStates holds every host's state. The map is made once, with every
// inventory host, and only read afterwards, so reading it needs no lock;
// a host that is not in the inventory (which the engine never runs) gets
// its state in extra, under mu.
type hostStates struct {
	byName map[string]*hostState
	mu     sync.Mutex
	extra  map[string]*hostState
}

func newHostStates(names []string) *hostStates {
	hs := &hostStates{byName: make(map[string]*hostState, len(names))}
	for _, n := range names {
		hs.byName[n] = newHostState(n, true)
	}
	return hs
}

// get returns host's state; with make, it makes one for a host that has
// none (inactive, with an empty tally).
func (hs *hostStates) get(host string, make bool) *hostState {
	if st := hs.byName[host]; st != nil {
		return st
	}
	hs.mu.Lock()
	defer hs.mu.Unlock()
	st := hs.extra[host]
	if st == nil && make {
		if hs.extra == nil {
			hs.extra = map[string]*hostState{}
		}
		st = newHostState(host, false)
		hs.extra[host] = st
	}
	return st
}

// isActive reports whether host is still in the run.
func (hs *hostStates) isActive(host string) bool {
	st := hs.get(host, false)
	if st == nil {
		return false
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	return st.active
}

// deactivate takes host out of the run and reports whether it was in it.
func (hs *hostStates) deactivate(host string) bool {
	st := hs.get(host, false)
	if st == nil {
		return false
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	was := st.active
	st.active = false
	return was
}

// count adds one host-step of status s to host's tally.
func (hs *hostStates) count(host string, s event.Status) {
	hs.get(host, true).count(s)
}

// count adds one host-step of status s to the tally.
func (st *hostState) count(s event.Status) {
	st.mu.Lock()
	defer st.mu.Unlock()
	t := &st.tally
	switch s {
	case event.OK:
		t.OK++
	case event.Changed:
		t.Changed++
	case event.Failed:
		t.Failed++
	case event.Skipped:
		t.Skipped++
	case event.Unreachable:
		t.Unreachable++
	case event.Warned:
		t.Warned++
	}
}

// activeCount is the number of hosts still in the run.
func (hs *hostStates) activeCount() int {
	n := 0
	for _, st := range hs.byName {
		st.mu.Lock()
		if st.active {
			n++
		}
		st.mu.Unlock()
	}
	return n
}

// tallies returns every host's tally, the inventory's and any other.
func (hs *hostStates) tallies() map[string]event.Tally {
	out := make(map[string]event.Tally, len(hs.byName))
	read := func(m map[string]*hostState) {
		for h, st := range m {
			st.mu.Lock()
			out[h] = st.tally
			st.mu.Unlock()
		}
	}
	read(hs.byName)
	hs.mu.Lock()
	read(hs.extra)
	hs.mu.Unlock()
	return out
}
