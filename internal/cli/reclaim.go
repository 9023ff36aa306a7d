package cli

import (
	"runtime"
	"runtime/metrics"
)

// reclaimMin is how much heap the run must have left behind since the
// last collection before reclaim collects it: below it, a collection
// costs more CPU than the memory it would give back is worth (a 10-host
// run stays under it).
const reclaimMin = 4 << 20

// reclaim collects the run's garbage when the run ends, before the record
// is closed. When the run returns, everything it held for its hosts (the
// connections' buffers, the engine's per-host state, the command outputs)
// is garbage the collector has not yet seen, and the connections' stacks
// are freed only by a collection; the record's Close (run.json, the
// trail's compression) then allocated on top of it, into pages the
// process had not touched before: at 200 hosts the run's peak resident
// set came while the record was written, up to 1.5 MiB above the rest of
// the run (docs/performance.md, "Peak RSS at 200 hosts (ninth round)"). Collected
// first, Close reuses that memory. It reports whether it collected.
func reclaim() bool {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}, {Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 || s[1].Value.Kind() != metrics.KindUint64 {
		return false
	}
	if objects, live := s[0].Value.Uint64(), s[1].Value.Uint64(); objects < live+reclaimMin {
		return false
	}
	runtime.GC()
	return true
}
