package eval

import (
	"math/big"
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

	off          atomic.Bool // too few hits to pay for the keys
	mu           sync.Mutex
	vals         map[string]V
	lookups, hit int
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
	for i, tr := range trs {
		if tr.RootName() == "host" {
			if m.parts == nil {
				m.parts = make([]*hostParts, len(trs))
			}
			m.parts[i] = ss.scope.hostPartsFor(tr)
		}
	}
	return m
}

// Do returns what eval gives on host, or what it gave on a host with the
// same inputs. eval reports whether its value may be kept (false when it
// has diagnostics).
func (m *Memo[V]) Do(host string, eval func() (V, bool)) V {
	if m == nil || m.off.Load() {
		v, _ := eval()
		return v
	}
	var buf [128]byte
	key, ok := m.ss.key(buf[:0], host, m.trs, m.parts)
	if !ok {
		v, _ := eval()
		return v
	}
	m.mu.Lock()
	v, hit := m.vals[string(key)]
	m.lookups++
	if hit {
		m.hit++
	} else if m.lookups >= memoTrial && m.hit*memoMinHits < m.lookups {
		m.off.Store(true)
		m.vals = nil
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
	if !m.off.Load() && len(m.vals) < MaxMemo {
		if m.vals == nil {
			m.vals = map[string]V{}
		}
		m.vals[string(key)] = v
	}
	m.mu.Unlock()
	return v
}

// hostParts is what one traversal of host.* spells in a key on each host,
// made once per host and run: the host object does not change during a
// run, and most steps read the same few host variables.
type hostParts struct {
	mu    sync.RWMutex
	parts map[string]string // by host: "+" and the key, or "-" for no key
}

// hostPartsFor returns the run's table of traversal tr of host.*, or nil
// when tr has a step the table cannot name (a splat, an index that is not
// a plain value).
func (s *Scope) hostPartsFor(tr hcl.Traversal) *hostParts {
	name, ok := spellHostTraversal(tr)
	if !ok {
		return nil
	}
	t, _ := s.keyParts.LoadOrStore(name, &hostParts{parts: map[string]string{}})
	return t.(*hostParts)
}

func (t *hostParts) get(s *Scope, host string, tr hcl.Traversal) (string, bool) {
	t.mu.RLock()
	p, ok := t.parts[host]
	t.mu.RUnlock()
	if !ok {
		p = "-"
		if v, found := traverseRel(s.hostVal(host), tr[1:]); found {
			if k, spelled := appendKey([]byte{'+'}, v); spelled {
				p = string(k)
			}
		}
		t.mu.Lock()
		t.parts[host] = p
		t.mu.Unlock()
	}
	if p[0] != '+' {
		return "", false
	}
	return p[1:], true
}
