package apply

import (
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/provadev/prova/engine/event"
)

// Hosts' states are counted and dropped concurrently (run with -race);
// a host not in the inventory is inactive but its tally is kept, as the
// run's one map did.
func TestHostStates(t *testing.T) {
	hs := newHostStates([]string{"a", "b"})
	var wg sync.WaitGroup
	for i := range 100 {
		wg.Go(func() {
			hs.count([]string{"a", "b", "x"}[i%3], []event.Status{event.OK, event.Changed, event.Failed, event.Skipped, event.Unreachable, event.Warned}[i%6])
			_ = hs.activeCount()
			_ = hs.isActive("a")
		})
	}
	wg.Wait()
	got := hs.tallies()
	want := map[string]event.Tally{
		"a": {OK: 17, Skipped: 17}, "b": {Changed: 17, Unreachable: 16}, "x": {Failed: 17, Warned: 16},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("tallies (-want +got):\n%s", d)
	}
	if !hs.isActive("a") || hs.isActive("x") || hs.isActive("nowhere") || hs.activeCount() != 2 {
		t.Errorf("active: a %v, x %v, count %d", hs.isActive("a"), hs.isActive("x"), hs.activeCount())
	}
	if !hs.deactivate("a") || hs.deactivate("a") || hs.deactivate("x") || hs.deactivate("nowhere") {
		t.Error("deactivate must report only the first drop of a host in the run")
	}
	if hs.activeCount() != 1 || hs.isActive("a") {
		t.Errorf("after dropping a: count %d", hs.activeCount())
	}
}
