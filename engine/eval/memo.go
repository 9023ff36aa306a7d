package eval

import (
	"math/big"
	"slices"
	"sort"
	"strconv"
	"sync"
	"sync/atomic"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
)

// Key appends to b a key for the values that traversals trs find on host
// in this step: two hosts with the same key give an expression that reads
// only these traversals the same value, since every function of the
// library is pure (TestFunctionsArePure). Only what differs between the
// hosts of a step is spelled: host.*, and this host's step.* results; the
// other names (var, local, each, per_host, group, inventory, path) are the
// same on every host of the step. The values are found without building
// the host's context: the host object is made once per run, and a result
// recorded by kind (planned, skipped) gives its attribute without being
// made. ok is false when a traversal reads self, does not resolve, or
// finds a value the key cannot spell exactly (marked, an unknown with
// refinements, or not made of strings, numbers, bools and collections of
// them); evaluate then.
func (ss *StepScope) Key(b []byte, host string, trs []hcl.Traversal) ([]byte, bool) {
	return ss.key(b, host, trs, nil)
}

// key is Key with parts[i], when there is one, the run's table of what
// trs[i] (of host.*) spells on each host.
func (ss *StepScope) key(b []byte, host string, trs []hcl.Traversal, parts []*hostParts) ([]byte, bool) {
	for i, tr := range trs {
		var v cty.Value
		switch tr.RootName() {
		case "host":
			if parts != nil && parts[i] != nil {
				part, ok := parts[i].get(ss.scope, host, tr)
				if !ok {
					return b, false
				}
				b = append(b, part...)
				b = append(b, ';')
				continue
			}
			var ok bool
			if v, ok = traverseRel(ss.scope.hostVal(host), tr[1:]); !ok {
				return b, false
			}
		case "step":
			if ss.results == nil {
				continue // the same unknown results on every host
			}
			name, ok := attrName(tr, 1)
			if !ok {
				return b, false
			}
			ty, ok := ss.scope.stepTypes[name]
			if !ok {
				return b, false
			}
			if v, ok = ss.results.ownAt(name, host, ty, tr[2:]); !ok {
				return b, false
			}
		case "self":
			return b, false
		default:
			continue
		}
		var ok bool
		if b, ok = appendKey(b, v); !ok {
			return b, false
		}
		b = append(b, ';')
	}
	return b, true
}

func attrName(tr hcl.Traversal, i int) (string, bool) {
	if len(tr) <= i {
		return "", false
	}
	a, ok := tr[i].(hcl.TraverseAttr)
	return a.Name, ok
}

// appendKey spells v unambiguously: a type letter, then the value, strings
// with their length first.
func appendKey(b []byte, v cty.Value) ([]byte, bool) {
	if v.IsMarked() {
		return b, false
	}
	ty := v.Type()
	if !v.IsKnown() {
		// Only the plain unknown of its type: refinements would have to
		// be spelled too.
		if !v.RawEquals(cty.UnknownVal(ty)) {
			return b, false
		}
		b = append(b, 'u')
		return appendType(b, ty)
	}
	if v.IsNull() {
		b = append(b, 'n')
		return appendType(b, ty)
	}
	switch {
	case ty == cty.String:
		s := v.AsString()
		b = append(b, 's')
		b = strconv.AppendInt(b, int64(len(s)), 10)
		b = append(b, ':')
		b = append(b, s...)
	case ty == cty.Number:
		// Exact, with the precision and rounding mode that arithmetic on
		// the value inherits; cheap for the integers host variables
		// mostly are (a 512-bit shortest decimal is not).
		f := v.AsBigFloat()
		b = append(b, 'd')
		b = strconv.AppendUint(b, uint64(f.Prec()), 10)
		b = append(b, byte('0'+f.Mode()))
		if i, acc := f.Int64(); acc == big.Exact {
			b = append(b, 'i')
			b = strconv.AppendInt(b, i, 10)
		} else {
			b = f.Append(b, 'p', 0)
		}
		b = append(b, ':')
	case ty == cty.Bool:
		if True(v) {
			b = append(b, 't')
		} else {
			b = append(b, 'f')
		}
	case ty.IsListType() || ty.IsSetType() || ty.IsTupleType() || ty.IsMapType() || ty.IsObjectType():
		// The type keeps a list apart from a set or a tuple with the same
		// elements, and an object from a map.
		var ok bool
		if b, ok = appendType(append(b, 'c'), ty); !ok {
			return b, false
		}
		b = append(b, '{')
		for it := v.ElementIterator(); it.Next(); {
			k, e := it.Element()
			if b, ok = appendKey(b, k); !ok {
				return b, false
			}
			if b, ok = appendKey(b, e); !ok {
				return b, false
			}
		}
		b = append(b, '}')
	default:
		return b, false
	}
	return b, true
}

// appendType spells a type the key can hold; ok is false for capsules.
func appendType(b []byte, ty cty.Type) ([]byte, bool) {
	ok := true
	switch {
	case ty == cty.String:
		b = append(b, 'S')
	case ty == cty.Number:
		b = append(b, 'N')
	case ty == cty.Bool:
		b = append(b, 'B')
	case ty == cty.DynamicPseudoType:
		b = append(b, 'D')
	case ty.IsListType():
		b, ok = appendType(append(b, 'L'), ty.ElementType())
	case ty.IsSetType():
		b, ok = appendType(append(b, 'E'), ty.ElementType())
	case ty.IsMapType():
		b, ok = appendType(append(b, 'M'), ty.ElementType())
	case ty.IsTupleType():
		b = append(b, 'T', '[')
		for _, et := range ty.TupleElementTypes() {
			if b, ok = appendType(b, et); !ok {
				return b, false
			}
		}
		b = append(b, ']')
	case ty.IsObjectType():
		// Attributes in cty's own (sorted) order, as ElementIterator
		// gives the values.
		b = append(b, 'O', '{')
		for _, name := range sortedAttrs(ty) {
			b = strconv.AppendInt(b, int64(len(name)), 10)
			b = append(b, ':')
			b = append(b, name...)
			if ty.AttributeOptional(name) {
				b = append(b, '?')
			}
			if b, ok = appendType(b, ty.AttributeType(name)); !ok {
				return b, false
			}
		}
		b = append(b, '}')
	default:
		return b, false
	}
	return b, ok
}

func sortedAttrs(ty cty.Type) []string {
	names := make([]string, 0, len(ty.AttributeTypes()))
	for name := range ty.AttributeTypes() {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}

// Memo keeps what one per-host evaluation of a step gives, per Key of the
// traversals it reads, so that the step evaluates it once per distinct
// input rather than once per host. Only what evaluates without
// diagnostics is kept: a diagnostic names the host's own context, and an
// error is worth evaluating again. A Memo is safe for concurrent use; a
// nil Memo keeps nothing.
type Memo[V any] struct {
	ss    *StepScope
	trs   []hcl.Traversal
	parts []*hostParts // per trs[i] of host.*, or nil

	off  atomic.Bool // too few hits to pay for the keys
	mu   sync.Mutex
	vals map[string]V
	// snap is a copy of vals while it holds at most maxSnap values, never
	// written once stored: a hit in it takes no lock.
	snap         atomic.Pointer[map[string]V]
	lookups, hit atomic.Int64

	// byID: the only input that differs between the step's hosts is one
	// traversal of host.*, whose run table gives each inventory host the
	// id of what it finds there; the values are kept by that id, read
	// without a lock or a key (slots, made at the first lookup).
	byID      *hostParts
	slotsOnce sync.Once
	slots     []atomic.Pointer[V] // nil: too few hosts share an id to pay
}

// MaxMemo bounds the values a Memo keeps.
const MaxMemo = 4096

// memoTrial is how many lookups a Memo makes before it judges whether
// its hits pay for its keys: with fewer than one hit in memoMinHits, it
// stops keying and every host evaluates.
const (
	memoTrial   = 64
	memoMinHits = 4
)

// NewMemo returns the memo of an evaluation reading trs in step ss, or nil
// when the key could never repeat between hosts: trs read self, the whole
// host object, or host.name or host.address, which name one host each.
func NewMemo[V any](ss *StepScope, trs []hcl.Traversal) *Memo[V] {
	for _, tr := range trs {
		switch tr.RootName() {
		case "self":
			return nil
		case "host":
			if name, ok := attrName(tr, 1); !ok || name == "name" || name == "address" {
				return nil
			}
		}
	}
	m := &Memo[V]{ss: ss, trs: trs}
	var tables []*hostParts // the distinct tables of the host.* traversals
	perHost := false        // an input differs per host without a table
	for i, tr := range trs {
		switch tr.RootName() {
		case "host":
			if m.parts == nil {
				m.parts = make([]*hostParts, len(trs))
			}
			if m.parts[i] = ss.scope.hostPartsFor(tr); m.parts[i] == nil {
				perHost = true
			} else if !slices.Contains(tables, m.parts[i]) {
				tables = append(tables, m.parts[i])
			}
		case "step":
			perHost = perHost || ss.results != nil
		}
	}
	if !perHost && len(tables) == 1 {
		m.byID = tables[0]
	}
	return m
}

// doByID is Do for a memo keyed by one table's ids; ok is false for a
// host the inventory does not list (then Do keys it as any other).
func (m *Memo[V]) doByID(host string, eval func() (V, bool)) (V, bool) {
	s := m.ss.scope
	idx := s.indexOf(host)
	if idx < 0 {
		var zero V
		return zero, false
	}
	t := m.byID.table(s)
	m.slotsOnce.Do(func() {
		// The trial's rule, known at once: with fewer than one hit in
		// memoMinHits, keeping values does not pay.
		if n := len(t.parts); n <= MaxMemo && n*memoMinHits <= len(s.Hosts) {
			m.slots = make([]atomic.Pointer[V], n)
		}
	})
	id := t.ids[idx]
	if m.slots == nil || id < 0 {
		v, _ := eval()
		return v, true
	}
	if p := m.slots[id].Load(); p != nil {
		return *p, true
	}
	v, keep := eval()
	if keep && !m.slots[id].CompareAndSwap(nil, &v) {
		// Another host with the same input stored first: share its
		// value, as a later host does.
		v = *m.slots[id].Load()
	}
	return v, true
}

// Do returns what eval gives on host, or what it gave on a host with the
// same inputs. eval reports whether its value may be kept (false when it
// has diagnostics).
func (m *Memo[V]) Do(host string, eval func() (V, bool)) V {
	if m == nil || m.off.Load() {
		v, _ := eval()
		return v
	}
	if m.byID != nil {
		if v, ok := m.doByID(host, eval); ok {
			return v
		}
	}
	var buf [128]byte
	key, ok := m.ss.key(buf[:0], host, m.trs, m.parts)
	if !ok {
		v, _ := eval()
		return v
	}
	lookups := m.lookups.Add(1)
	if snap := m.snap.Load(); snap != nil {
		if v, hit := (*snap)[string(key)]; hit {
			m.hit.Add(1)
			return v
		}
	}
	m.mu.Lock()
	v, hit := m.vals[string(key)]
	if hit {
		m.hit.Add(1)
	} else if lookups >= memoTrial && m.hit.Load()*memoMinHits < lookups {
		m.off.Store(true)
		m.vals = nil
		m.snap.Store(nil)
	}
	m.mu.Unlock()
	if hit {
		return v
	}
	v, keep := eval()
	if !keep {
		return v
	}
	m.mu.Lock()
	if first, stored := m.vals[string(key)]; stored {
		// Another host with the same input stored first: share its
		// value, as a later host does.
		m.mu.Unlock()
		return first
	}
	if !m.off.Load() && len(m.vals) < MaxMemo {
		if m.vals == nil {
			m.vals = map[string]V{}
		}
		m.vals[string(key)] = v
		if len(m.vals) <= maxSnap {
			snap := make(map[string]V, len(m.vals))
			for k, sv := range m.vals {
				snap[k] = sv
			}
			m.snap.Store(&snap)
		}
	}
	m.mu.Unlock()
	return v
}

// maxSnap bounds the values a Memo copies into its lock-free snapshot
// (each new value copies them all); beyond it, the rest are looked up
// under the lock.
const maxSnap = 64

// hostParts is what one traversal of host.* spells in a key on each
// inventory host, made once per run for every host at its first use (the
// host object does not change during a run, and most steps read the same
// few host variables): each distinct spelling once, and each host the id
// of its spelling. Read without locks once made.
type hostParts struct {
	once  sync.Once
	tr    hcl.Traversal // the traversal (any of the same spelling)
	ids   []int32       // by index in Scope.Hosts: an index in parts, or -1 for no key
	parts []string      // the distinct spellings
}

// hostPartsFor returns the run's table of traversal tr of host.*, or nil
// when tr has a step the table cannot name (a splat, an index that is not
// a plain value).
func (s *Scope) hostPartsFor(tr hcl.Traversal) *hostParts {
	name, ok := spellHostTraversal(tr)
	if !ok {
		return nil
	}
	t, _ := s.keyParts.LoadOrStore(name, &hostParts{tr: tr})
	return t.(*hostParts)
}

// table makes the table if it is not made yet.
func (t *hostParts) table(s *Scope) *hostParts {
	t.once.Do(func() {
		t.ids = make([]int32, len(s.Hosts))
		byPart := map[string]int32{}
		var buf []byte
		for i, h := range s.Hosts {
			t.ids[i] = -1
			v, found := traverseRel(s.hostVal(h.Name), t.tr[1:])
			if !found {
				continue
			}
			k, spelled := appendKey(buf[:0], v)
			if buf = k; !spelled {
				continue
			}
			id, seen := byPart[string(k)]
			if !seen {
				id = int32(len(t.parts))
				t.parts = append(t.parts, string(k))
				byPart[t.parts[id]] = id
			}
			t.ids[i] = id
		}
	})
	return t
}

// get returns what the traversal spells on host; false when it spells
// nothing (it does not resolve, or finds what a key cannot spell).
func (t *hostParts) get(s *Scope, host string, tr hcl.Traversal) (string, bool) {
	idx := s.indexOf(host)
	if idx < 0 {
		// Not in the inventory: its own object, spelled now.
		v, found := traverseRel(s.hostVal(host), tr[1:])
		if !found {
			return "", false
		}
		k, spelled := appendKey(nil, v)
		return string(k), spelled
	}
	t.table(s)
	id := t.ids[idx]
	if id < 0 {
		return "", false
	}
	return t.parts[id], true
}
