package eval

import (
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
)

// Results holds step results as they arrive during apply. It is safe for
// concurrent use. Each step's results have a lock of their own, so hosts
// recording different steps do not wait for each other, and a record
// touches only its step's maps.
type Results struct {
	steps sync.Map // step name -> *stepResults
	// hosts is the most hosts a step has had results for so far: a new
	// step's maps are made that large at once rather than grown.
	hosts atomic.Int64
	// inv is the inventory's host index (Scope.Step sets it): a record
	// by kind of an inventory host is a byte in a step's table rather
	// than a map entry.
	inv atomic.Pointer[hostIndex]
}

// hostIndex numbers the inventory's hosts: index by name, names by index.
type hostIndex struct {
	index map[string]int
	names []string
}

// indexed makes records by kind of s's inventory hosts go to the steps'
// tables; a store used with one scope only (the engine's: one per run).
func (r *Results) indexed(s *Scope) {
	if r.inv.Load() != nil {
		return
	}
	s.indexOf("")
	names := make([]string, len(s.Hosts))
	for i, h := range s.Hosts {
		names[i] = h.Name
	}
	r.inv.CompareAndSwap(nil, &hostIndex{index: s.hostIndex, names: names})
}

// idx returns host's index, or -1 without an index or for a host outside it.
func (r *Results) idx(host string) (int, *hostIndex) {
	inv := r.inv.Load()
	if inv == nil {
		return -1, nil
	}
	if i, ok := inv.index[host]; ok && inv.names[i] == host {
		return i, inv
	}
	return -1, inv
}

// stepResults are one step's results.
type stepResults struct {
	mu     sync.Mutex
	values map[string]cty.Value
	// later holds results recorded by what they are (skipped, planned)
	// rather than as values, by host: the value is made when first read
	// and then moves to values. Most steps' results are never read, and a
	// result object costs more than the rest of a planned host-step.
	later map[string]laterResult
	// kinds holds the records by kind (not laterMade, which carries a
	// function) of the inventory's hosts, by host index: the kind plus
	// one, 0 for none. nkinds counts the hosts it holds. A host is in
	// values, later or kinds, never in two. applied holds, at the same
	// index, what a laterApplied record of kinds is made of (nil until the
	// step has one): an applied host-step's record is a copy into the
	// table, with no allocation or map entry of its own. Its entries are
	// read and written under mu only.
	kinds   []laterKind
	nkinds  int
	applied []Applied
	// laterType is the result type every record by kind of the step
	// gives.
	laterType cty.Type
	// sharedHost is the one host that ran a run_once step (shared): every
	// host sees that result as its own.
	sharedHost string
	shared     bool
	// perHost memoises the per_host map (made again after a record).
	perHost       cty.Value
	perHostCached bool
}

// NewResults returns an empty store.
func NewResults() *Results { return &Results{} }

// step returns step's results, made empty when it has none yet.
func (r *Results) step(step string) *stepResults {
	if sr, ok := r.steps.Load(step); ok {
		return sr.(*stepResults)
	}
	sr, _ := r.steps.LoadOrStore(step, &stepResults{})
	return sr.(*stepResults)
}

// lookup returns step's results, or nil when it has none.
func (r *Results) lookup(step string) *stepResults {
	if sr, ok := r.steps.Load(step); ok {
		return sr.(*stepResults)
	}
	return nil
}

// grown notes that a step has results for n hosts.
func (r *Results) grown(n int) {
	for {
		old := r.hosts.Load()
		if int64(n) <= old || r.hosts.CompareAndSwap(old, int64(n)) {
			return
		}
	}
}

// Set records host's result of step.
func (r *Results) Set(step, host string, v cty.Value) {
	sr := r.step(step)
	sr.mu.Lock()
	if sr.values == nil {
		sr.values = make(map[string]cty.Value, r.hosts.Load())
	}
	sr.values[host] = v
	n := len(sr.values)
	sr.dropLater(r, host)
	sr.perHostCached = false
	sr.mu.Unlock()
	r.grown(n)
}

// dropLater removes host's record by kind, if any. The caller holds sr.mu.
func (sr *stepResults) dropLater(r *Results, host string) {
	if len(sr.later) > 0 {
		delete(sr.later, host)
	}
	if sr.nkinds > 0 {
		if i, _ := r.idx(host); i >= 0 && sr.kinds[i] != 0 {
			if sr.kinds[i]-1 == laterApplied {
				sr.applied[i] = Applied{}
			}
			sr.kinds[i] = 0
			sr.nkinds--
		}
	}
}

// laterOf returns host's record by kind. The caller holds sr.mu, and
// reads what the record points to (an applied one's table entry) before
// releasing it.
func (sr *stepResults) laterOf(r *Results, host string) (laterResult, bool) {
	if sr.nkinds > 0 {
		if i, _ := r.idx(host); i >= 0 && sr.kinds[i] != 0 {
			return sr.kindAt(i), true
		}
	}
	lr, ok := sr.later[host]
	return lr, ok
}

// kindAt is the record at index i of kinds, which holds one. The caller
// holds sr.mu.
func (sr *stepResults) kindAt(i int) laterResult {
	lr := laterResult{kind: sr.kinds[i] - 1}
	if lr.kind == laterApplied {
		lr.applied = &sr.applied[i]
	}
	return lr
}

// SetSkipped records that step did not run on host: its result is
// SkippedResult(ty, host), made when first read.
func (r *Results) SetSkipped(step, host string, ty cty.Type) {
	r.setLater(step, host, ty, laterResult{kind: laterSkipped}, nil)
}

// SetUnknown records that host's result of step is wholly unknown:
// cty.UnknownVal(ty), made when first read.
func (r *Results) SetUnknown(step, host string, ty cty.Type) {
	r.setLater(step, host, ty, laterResult{kind: laterUnknown}, nil)
}

// SetPlanned records that a module planned step on host, to change it or
// not: its result is PlannedResult(ty, host, changed), made when first
// read.
func (r *Results) SetPlanned(step, host string, ty cty.Type, changed bool) {
	k := laterPlanned
	if changed {
		k = laterPlannedChange
	}
	r.setLater(step, host, ty, laterResult{kind: k}, nil)
}

// SetFunc records host's result of step as what make returns, called
// once, when the result is first read (under the step's lock, and
// alongside other results' make when a step's results are made at once:
// make must be quick, pure and not use the store).
func (r *Results) SetFunc(step, host string, make func() cty.Value) {
	r.setLater(step, host, cty.NilType, laterResult{kind: laterMade, make: make}, nil)
}

// SetApplied records host's result of step, of result type ty, as what it
// is made of: AppliedResult(ty, host, a), made when first read; an
// attribute of it is read without making it. It is meant for result types
// of the common attributes only (CommonResultAttrs). An inventory host's
// record is a copy of a in the step's table (no allocation); another
// host's, a copy of its own.
func (r *Results) SetApplied(step, host string, ty cty.Type, a Applied) {
	r.setLater(step, host, ty, laterResult{kind: laterApplied}, &a)
}

// setLater records l as host's record of step; a laterApplied l is made
// of a (copied: a is not kept), the others have a nil.
func (r *Results) setLater(step, host string, ty cty.Type, l laterResult, a *Applied) {
	sr := r.step(step)
	sr.mu.Lock()
	if ty != cty.NilType && sr.laterType == cty.NilType {
		sr.laterType = ty
	}
	if i, inv := r.idx(host); i >= 0 && l.make == nil {
		if sr.kinds == nil {
			sr.kinds = make([]laterKind, len(inv.names))
		}
		switch {
		case sr.kinds[i] == 0:
			sr.nkinds++
		case sr.kinds[i]-1 == laterApplied:
			sr.applied[i] = Applied{}
		}
		if l.kind == laterApplied {
			if sr.applied == nil {
				sr.applied = make([]Applied, len(inv.names))
			}
			sr.applied[i] = *a
		}
		sr.kinds[i] = l.kind + 1
		if len(sr.later) > 0 {
			delete(sr.later, host)
		}
	} else {
		sr.dropLater(r, host)
		if l.kind == laterApplied {
			l.applied = &Applied{}
			*l.applied = *a
		}
		if sr.later == nil {
			sr.later = make(map[string]laterResult, r.hosts.Load())
		}
		sr.later[host] = l
	}
	n := len(sr.later) + sr.nkinds
	if len(sr.values) > 0 {
		delete(sr.values, host)
	}
	sr.perHostCached = false
	sr.mu.Unlock()
	r.grown(n)
}

// settle makes the values of the step's later results and moves them to
// values. The caller holds sr.mu.
func (sr *stepResults) settle(r *Results) {
	n := len(sr.later) + sr.nkinds
	if n == 0 {
		return
	}
	if sr.values == nil {
		sr.values = make(map[string]cty.Value, n)
	}
	hosts := make([]string, 0, n)
	records := make([]laterResult, 0, n)
	for host, lr := range sr.later {
		hosts, records = append(hosts, host), append(records, lr)
	}
	if sr.nkinds > 0 {
		names := r.inv.Load().names
		for i, k := range sr.kinds {
			if k != 0 {
				hosts, records = append(hosts, names[i]), append(records, sr.kindAt(i))
				sr.kinds[i] = 0
			}
		}
	}
	sr.later, sr.nkinds = nil, 0
	vals := make([]cty.Value, len(hosts))
	if len(hosts) < parallelSettle || runtime.GOMAXPROCS(0) == 1 {
		for i, h := range hosts {
			vals[i] = records[i].value(sr.laterType, h)
		}
	} else {
		settleParallel(vals, hosts, records, sr.laterType)
	}
	for i, h := range hosts {
		sr.values[h] = vals[i]
	}
	// Every record of the table is a value now: its applied ones' table
	// goes (a later record makes a new one).
	sr.applied = nil
	r.grown(len(sr.values))
}

// parallelSettle is the fewest later results settle makes on every core:
// the first per_host read of a step makes every host's result object at
// once, while the run waits for it (1,000 objects: milliseconds).
const parallelSettle = 256

// settleParallel makes vals[i], the value of records[i] on hosts[i],
// GOMAXPROCS goroutines each making a share (a result's value is made from
// the record alone, so they can be made in any order).
func settleParallel(vals []cty.Value, hosts []string, records []laterResult, ty cty.Type) {
	workers := min(runtime.GOMAXPROCS(0), len(hosts))
	var wg sync.WaitGroup
	for w := range workers {
		lo, hi := w*len(hosts)/workers, (w+1)*len(hosts)/workers
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := lo; i < hi; i++ {
				vals[i] = records[i].value(ty, hosts[i])
			}
		}()
	}
	wg.Wait()
}

// Share makes host's result of a run_once step every host's result.
func (r *Results) Share(step, host string) {
	sr := r.step(step)
	sr.mu.Lock()
	sr.sharedHost, sr.shared = host, true
	sr.mu.Unlock()
}

// Get returns host's result of step.
func (r *Results) Get(step, host string) (cty.Value, bool) {
	sr := r.lookup(step)
	if sr == nil {
		return cty.NilVal, false
	}
	sr.mu.Lock()
	defer sr.mu.Unlock()
	sr.settle(r)
	v, ok := sr.values[host]
	return v, ok
}

func (r *Results) values(step, host string, ty cty.Type) (cty.Value, cty.Value) {
	return r.own(step, host, ty), r.perHost(step, ty)
}

// own returns host's result of step: its own, the shared one of a run_once
// step, or a skipped result when the step did not run on host. Only the
// result it returns is made, not the step's other hosts'.
func (r *Results) own(step, host string, ty cty.Type) cty.Value {
	var own cty.Value
	ok := false
	if sr := r.lookup(step); sr != nil {
		sr.mu.Lock()
		own, ok = sr.settleHost(r, host)
		if !ok && sr.shared {
			own, ok = sr.settleHost(r, sr.sharedHost)
		}
		sr.mu.Unlock()
	}
	if !ok {
		own = SkippedResult(ty, host)
	}
	return own
}

// settleHost returns host's own result of the step, making it if it was
// recorded by kind. The caller holds sr.mu.
func (sr *stepResults) settleHost(r *Results, host string) (cty.Value, bool) {
	if v, ok := sr.values[host]; ok {
		return v, true
	}
	lr, ok := sr.laterOf(r, host)
	if !ok {
		return cty.NilVal, false
	}
	v := lr.value(sr.laterType, host)
	if sr.values == nil {
		sr.values = map[string]cty.Value{}
	}
	sr.values[host] = v
	sr.dropLater(r, host)
	return v, true
}

// ownAt returns what traversal rest finds in host's result of step (as
// own gives it), without making a result recorded by kind when rest starts
// with one of its attributes. ok is false when rest does not resolve.
func (r *Results) ownAt(step, host string, ty cty.Type, rest hcl.Traversal) (cty.Value, bool) {
	if sr := r.lookup(step); sr != nil {
		if name, ok := attrName(rest, 0); ok {
			// Under the lock: an applied record points into the step's
			// table, which a later record of the host rewrites.
			var v cty.Value
			sr.mu.Lock()
			lr, later := sr.laterOf(r, host)
			if later {
				v, later = lr.attr(sr.laterType, name, host)
			}
			sr.mu.Unlock()
			if later {
				return traverseRel(v, rest[1:])
			}
		}
	}
	return traverseRel(r.own(step, host, ty), rest)
}

// perHost returns every host's result of step as a map by host name,
// memoised until the next record of that step.
func (r *Results) perHost(step string, ty cty.Type) cty.Value {
	sr := r.lookup(step)
	if sr == nil {
		return cty.MapValEmpty(ty)
	}
	sr.mu.Lock()
	defer sr.mu.Unlock()
	if !sr.perHostCached {
		sr.settle(r)
		if len(sr.values) == 0 {
			sr.perHost = cty.MapValEmpty(ty)
		} else {
			// MapVal copies what the map holds and keeps nothing of it.
			sr.perHost = cty.MapVal(sr.values)
		}
		sr.perHostCached = true
	}
	return sr.perHost
}
