package findings

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/provadev/prova/engine/event"
)

func TestCollectorCausesAndGroups(t *testing.T) {
	c := NewCollector()
	obs := event.Observer(c)
	obs.Observe(event.HostFinished{Step: "shell.x", Host: "gpfs01", Status: event.OK})
	// The diagnosis comes before the assertion that fails on it.
	obs.Observe(event.HostFinished{Step: "verbs_diagnose.diag", Host: "gpfs04", Status: event.OK,
		Result: map[string]any{"cause": "connect_failed", "missing": []any{"gpfs01", "gpfs02"}, "explanation": "gpfs04 cannot connect"}})
	obs.Observe(event.HostFinished{Step: "verbs_diagnose.diag", Host: "gpfs01", Status: event.OK,
		Result: map[string]any{"cause": "peer_side", "missing": []any{"gpfs04"}}})
	obs.Observe(event.HostFinished{Step: "verbs_diagnose.diag", Host: "gpfs02", Status: event.OK,
		Result: map[string]any{"cause": "peer_side", "missing": []any{"gpfs04"}}})
	obs.Observe(event.HostFinished{Step: "verbs_diagnose.diag", Host: "gpfs03", Status: event.OK, Result: map[string]any{"cause": "none"}})
	obs.Observe(&event.HostFinished{Step: "assert.rdma", Host: "gpfs04", Status: event.Failed, Message: "0 of 3 peers"})
	obs.Observe(event.HostFinished{Step: "assert.rdma", Host: "gpfs01", Status: event.Warned, Message: "2 of 3 peers"})
	obs.Observe(event.HostFinished{Step: "assert.rdma", Host: "gpfs02", Status: event.Warned, Message: "2 of 3 peers"})
	obs.Observe(event.HostFinished{Step: "ping.x", Host: "gpfs05", Status: event.Unreachable, Message: "dial tcp: refused"})
	obs.Observe(event.StepFinished{Step: "assert.rdma"})

	fs := c.Findings()
	want := []Finding{
		{Host: "gpfs04", Step: "assert.rdma", Status: event.Failed, Cause: "connect_failed", Message: "0 of 3 peers", Peers: []string{"gpfs01", "gpfs02"}},
		{Host: "gpfs01", Step: "assert.rdma", Status: event.Warned, Cause: "peer_side", Message: "2 of 3 peers", Peers: []string{"gpfs04"}},
		{Host: "gpfs02", Step: "assert.rdma", Status: event.Warned, Cause: "peer_side", Message: "2 of 3 peers", Peers: []string{"gpfs04"}},
		{Host: "gpfs05", Step: "ping.x", Status: event.Unreachable, Cause: "unreachable", Message: "dial tcp: refused", Peers: []string{}},
	}
	if d := cmp.Diff(want, fs, cmp.Comparer(func(a, b []string) bool { return len(a) == len(b) && (len(a) == 0 || cmp.Equal(a, b)) })); d != "" {
		t.Errorf("findings (-want +got):\n%s", d)
	}
	if got := c.Explanation("gpfs04"); got != "gpfs04 cannot connect" {
		t.Errorf("explanation %q", got)
	}
	failed, warned := Split(fs)
	if len(failed) != 2 || len(warned) != 2 {
		t.Errorf("split: %d failed, %d warned", len(failed), len(warned))
	}
	gs := ByCause(fs)
	var got [][]string
	for _, g := range gs {
		got = append(got, append([]string{string(g.Status), g.Cause}, g.Hosts...))
	}
	wantG := [][]string{
		{"failed", "connect_failed", "gpfs04"},
		{"failed", "unreachable", "gpfs05"},
		{"warn", "peer_side", "gpfs01", "gpfs02"},
	}
	if d := cmp.Diff(wantG, got); d != "" {
		t.Errorf("groups (-want +got):\n%s", d)
	}
}
