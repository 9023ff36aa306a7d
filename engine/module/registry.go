package module

import (
	"fmt"
	"regexp"
	"sort"
)

var idPattern = regexp.MustCompile(`^[a-z][a-z0-9_]*$`)

// Registry is the set of modules a run can use. It is built in one place
// (modules/all) and passed to the engine; tests build their own.
type Registry struct {
	mods map[string]Module
}

// NewRegistry returns an empty registry.
func NewRegistry() *Registry { return &Registry{mods: map[string]Module{}} }

// Register adds m. It panics on a duplicate or malformed ID: both are
// programming errors found by the first test that builds the registry.
func (r *Registry) Register(m Module) {
	id := m.ID()
	if !idPattern.MatchString(id) {
		panic(fmt.Sprintf("module: invalid module ID %q", id))
	}
	if _, dup := r.mods[id]; dup {
		panic(fmt.Sprintf("module: duplicate module ID %q", id))
	}
	r.mods[id] = m
}

// Lookup returns the module with the given ID.
func (r *Registry) Lookup(id string) (Module, bool) {
	m, ok := r.mods[id]
	return m, ok
}

// IDs returns the registered IDs, sorted.
func (r *Registry) IDs() []string {
	ids := make([]string, 0, len(r.mods))
	for id := range r.mods {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	return ids
}
