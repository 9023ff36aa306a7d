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

// Register adds m. It panics on a duplicate or malformed ID, and on a
// module that is not exactly one of Planner and ReadOnly: all are
// programming errors found by the first test that builds the registry.
func (r *Registry) Register(m Module) {
	id := m.ID()
	if !idPattern.MatchString(id) {
		panic(fmt.Sprintf("module: invalid module ID %q", id))
	}
	if err := CheckKind(m); err != nil {
		panic("module: " + err.Error())
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

// CheckKind reports an error unless m is exactly one of Planner (it may
// change hosts) and ReadOnly (it never does). A read-only ClusterModule must
// be ApplyOnly: plan runs read-only steps per host, and a cluster module's
// work spans hosts.
func CheckKind(m Module) error {
	_, plans := m.(Planner)
	_, reads := m.(ReadOnly)
	_, cluster := m.(ClusterModule)
	_, applyOnly := m.(ApplyOnly)
	switch {
	case reads && cluster && !applyOnly:
		return fmt.Errorf("module %q is a read-only ClusterModule but not ApplyOnly: plan cannot run it host by host", m.ID())
	case plans && reads:
		return fmt.Errorf("module %q is both a Planner and ReadOnly: a read-only module has no Plan of its own", m.ID())
	case !plans && !reads:
		return fmt.Errorf("module %q is neither a Planner nor ReadOnly", m.ID())
	}
	return nil
}
