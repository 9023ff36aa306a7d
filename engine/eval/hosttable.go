package eval

import (
	"strings"
	"sync"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
)

// hostTable is what one traversal of host.* (host.vars.idx) finds on each
// inventory host, made once per run for every host at its first use: the
// host objects do not change during a run, and the steps of a runbook read
// the same few host variables. Each entry holds the value (as traverseRel
// gives it) and, when the value is plain, its rendering in a string
// template (appendPlain). Read without locks once made.
type hostTable struct {
	once    sync.Once
	entries []hostEntry // by index in Scope.Hosts
}

type hostEntry struct {
	v     cty.Value
	ok    bool // the traversal resolves (hcl gives no error)
	plain bool // v is a plain value: text is what a template writes of it
	text  string
}

// hostTableFor returns the run's table of traversal tr of host.*, or nil
// when tr has a step a table cannot name (a splat, an index that is not a
// plain value).
func (s *Scope) hostTableFor(tr hcl.Traversal) *hostTable {
	name, ok := spellHostTraversal(tr)
	if !ok {
		return nil
	}
	t, _ := s.hostTables.LoadOrStore(name, &hostTable{})
	return t.(*hostTable)
}

// indexOf returns host's index in Hosts, or -1 when the inventory does not
// list it.
func (s *Scope) indexOf(host string) int {
	s.hostIndexOnce.Do(func() {
		s.hostIndex = make(map[string]int, len(s.Hosts))
		for i, h := range s.Hosts {
			if _, dup := s.hostIndex[h.Name]; !dup {
				s.hostIndex[h.Name] = i
			}
		}
	})
	if i, ok := s.hostIndex[host]; ok {
		return i
	}
	return -1
}

// entry returns the table's entry of the host at idx, making the table
// (for every host) if it is not made yet; rest is the traversal after
// host.
func (t *hostTable) entry(s *Scope, idx int, rest hcl.Traversal) hostEntry {
	t.once.Do(func() {
		t.entries = make([]hostEntry, len(s.Hosts))
		for i, h := range s.Hosts {
			e := &t.entries[i]
			if e.v, e.ok = traverseRel(s.hostVal(h.Name), rest); e.ok {
				var b strings.Builder
				if e.plain = appendPlain(&b, e.v); e.plain {
					e.text = b.String()
				}
			}
		}
	})
	return t.entries[idx]
}

// spellHostTraversal spells a traversal of host.* as a table's name.
func spellHostTraversal(tr hcl.Traversal) (string, bool) {
	name := []byte("host")
	for _, st := range tr[1:] {
		switch st := st.(type) {
		case hcl.TraverseAttr:
			name = append(append(name, '.'), st.Name...)
		case hcl.TraverseIndex:
			var ok bool
			if name, ok = appendKey(append(name, '['), st.Key); !ok {
				return "", false
			}
			name = append(name, ']')
		default:
			return "", false
		}
	}
	return string(name), true
}
