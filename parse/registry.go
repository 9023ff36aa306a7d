package parse

import (
	"fmt"
	"sort"
)

// Parser reads one tool's output into a typed value that marshals to JSON.
type Parser struct {
	// Name is what `prova parse NAME FILE` takes, e.g. "ibstat",
	// "mmfsadm-verbs-conn", "nvme-list-subsys".
	Name string
	// Command is the command whose output it reads, e.g. "mmlsconfig -Y".
	Command string
	Parse   func(data []byte) (any, error)
}

// Registry holds the parsers `prova parse` knows, by name.
type Registry struct{ m map[string]Parser }

// NewRegistry builds a registry from parsers; a duplicate name panics.
func NewRegistry(ps ...[]Parser) *Registry {
	r := &Registry{m: map[string]Parser{}}
	for _, list := range ps {
		for _, p := range list {
			if _, dup := r.m[p.Name]; dup {
				panic(fmt.Sprintf("parse: duplicate parser %q", p.Name))
			}
			r.m[p.Name] = p
		}
	}
	return r
}

// Lookup returns the parser called name.
func (r *Registry) Lookup(name string) (Parser, bool) {
	p, ok := r.m[name]
	return p, ok
}

// List returns all parsers sorted by name.
func (r *Registry) List() []Parser {
	out := make([]Parser, 0, len(r.m))
	for _, p := range r.m {
		out = append(out, p)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// Typed adapts a typed parse function to Parser.Parse, so that a failed
// parse gives a nil interface rather than a typed nil pointer.
func Typed[T any](f func([]byte) (*T, error)) func([]byte) (any, error) {
	return func(b []byte) (any, error) {
		v, err := f(b)
		if err != nil {
			return nil, err
		}
		return v, nil
	}
}
