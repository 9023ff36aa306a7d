package cli

import (
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"testing"
)

var reclaimSink [][]byte

func gcCycles() uint64 {
	s := []metrics.Sample{{Name: "/gc/cycles/total:gc-cycles"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// TestReclaimCollectsOnlyAHeapLeftBehind: with the collector paced off, a
// run that left less than reclaimMin of garbage since the last collection
// is not collected (a small run pays nothing), one that left more is, and
// the collection gives its memory back to the heap.
func TestReclaimCollectsOnlyAHeapLeftBehind(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	runtime.GC()
	garbage := func(n int) {
		for range n / (64 << 10) {
			reclaimSink = append(reclaimSink, make([]byte, 64<<10))
		}
		reclaimSink = nil
	}

	garbage(reclaimMin / 4)
	before := gcCycles()
	if reclaim() {
		t.Errorf("reclaim collected %d kB of garbage, under its %d kB minimum", reclaimMin/4>>10, reclaimMin>>10)
	}
	if n := gcCycles() - before; n != 0 {
		t.Errorf("%d collections for a heap under the minimum", n)
	}

	garbage(2 * reclaimMin)
	before = gcCycles()
	if !reclaim() {
		t.Errorf("reclaim did not collect %d kB of garbage", 2*reclaimMin>>10)
	}
	if n := gcCycles() - before; n == 0 {
		t.Error("reclaim reported a collection the runtime did not count")
	}
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}, {Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	if objects, live := s[0].Value.Uint64(), s[1].Value.Uint64(); objects >= live+reclaimMin {
		t.Errorf("after reclaim the heap holds %d kB of objects over %d kB live", objects>>10, live>>10)
	}
}
