package record

import (
	"fmt"

	"github.com/provadev/prova/engine/event"
	"github.com/provadev/prova/internal/evidence/wire"
)

// heldResult is a finished (or started, not finished) host-step as the
// Writer holds it until Close: its HostResult already encoded as run.json
// holds it, with the few fields Close reads besides (the tallies, whether
// the run failed, the assertions). A HostResult value with its result
// map was about 550 bytes per host-step, 1 MB of the live heap at 200
// hosts x 10 steps, held for nothing but run.json's encoding at Close;
// the encoding is the events.jsonl line's (appendHostStep), made once.
// Load's records keep HostResult values in Step.Hosts: their readers
// need them.
type heldResult struct {
	// js is the HostResult's encoding in run.json; nil when it could
	// not be encoded (the error was the record's at Observe, and Close
	// keeps the last run.json rather than write one without it).
	js     []byte
	status event.Status
	assert *heldAssert // nil unless the result has checks or a severity
}

// heldAssert is what assertions() reads of a result with checks or a
// severity (assertion steps; few host-steps).
type heldAssert struct {
	severity, message string
	checks            []event.Check
}

// unfinishedJSON is HostResult{Status: Unfinished} as run.json holds it.
var unfinishedJSON = []byte(`{"status":"unfinished","duration_s":0}`)

// newHeld holds hr, whose run.json encoding is js.
func newHeld(hr *HostResult, js []byte) heldResult {
	h := heldResult{js: js, status: hr.Status}
	if hr.Severity != "" || len(hr.Checks) > 0 {
		h.assert = &heldAssert{severity: hr.Severity, message: hr.Message, checks: hr.Checks}
	}
	return h
}

// hostView is what the record's summaries (tallies, failure,
// assertions) read of a host-step, held or a HostResult.
type hostView struct {
	status event.Status
	heldAssert
}

// hostNames appends the names of the hosts of step s to dst[:0].
func (w *builder) hostNames(dst []string, s *Step) []string {
	if held, ok := w.held[s.Step]; ok {
		return appendSortedKeys(dst, held)
	}
	return appendSortedKeys(dst, s.Hosts)
}

// hostView returns what the summaries read of host h in step s.
func (w *builder) hostView(s *Step, h string) hostView {
	if held, ok := w.held[s.Step]; ok {
		r := held[h]
		v := hostView{status: r.status}
		if r.assert != nil {
			v.heldAssert = *r.assert
		}
		return v
	}
	r := s.Hosts[h]
	return hostView{status: r.Status, heldAssert: heldAssert{severity: r.Severity, message: r.Message, checks: r.Checks}}
}

// appendHeldHosts appends a step's held hosts as run.json's "hosts"
// object: the encodings made at Observe, in encoding/json's key order.
func appendHeldHosts(b []byte, step string, held map[string]heldResult, keys []string) ([]byte, []string, error) {
	keys = appendSortedKeys(keys, held)
	b = append(b, '{')
	for j, k := range keys {
		js := held[k].js
		if js == nil {
			return b, keys, fmt.Errorf("step %s, host %s: its result could not be encoded", step, k)
		}
		if j > 0 {
			b = append(b, ',')
		}
		b = wire.AppendString(b, k)
		b = append(b, ':')
		b = append(b, js...)
	}
	return append(b, '}'), keys, nil
}
