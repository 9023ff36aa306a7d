package eval

import (
	"sync"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
)

// Refs is what a step's expressions read of the per-host and per-step
// names: whether they use host.* or self, and which steps' results they
// name under step.* and per_host.*. Everything else an expression can see
// (var, local, group, inventory, path, each, the functions) is the same on
// every host of a step.
type Refs struct {
	Host, Self bool
	Step       []string // step.NAME, each name once
	PerHost    []string // per_host.NAME, each name once
}

// RefsOf collects the Refs of traversals (hcl.Expression.Variables or
// hcldec.Variables).
func RefsOf(trs []hcl.Traversal) Refs {
	var r Refs
	for _, tr := range trs {
		switch tr.RootName() {
		case "host":
			r.Host = true
		case "self":
			r.Self = true
		case "step":
			r.Step = addName(r.Step, tr)
		case "per_host":
			r.PerHost = addName(r.PerHost, tr)
		}
	}
	return r
}

func addName(names []string, tr hcl.Traversal) []string {
	if len(tr) < 2 {
		return names
	}
	a, ok := tr[1].(hcl.TraverseAttr)
	if !ok {
		return names
	}
	for _, n := range names {
		if n == a.Name {
			return names
		}
	}
	return append(names, a.Name)
}

// VaryByHost reports whether expressions with these refs can take a
// different value on each host: they read host.* or self, or this host's
// results under step.*. Every function of the library is pure, so an
// expression that reads none of these has one value for the whole step.
func (r Refs) VaryByHost() bool {
	return r.Host || r.Self || len(r.Step) > 0
}

// StepScope is the evaluation context of one step, built once when the
// step starts and shared by all its hosts: the base names, each, the
// per_host.* results the step reads (its dependencies have finished, so
// they do not change while it runs) and, without results, its all-unknown
// step.* results. Host adds what differs per host. It is safe for concurrent use.
type StepScope struct {
	scope   *Scope
	results *Results // nil: every step result unknown
	step    []string // step.* names to build per host (apply)
	ctx     *hcl.EvalContext
}

// Step returns the scope of a step whose expressions read refs, with each
// (cty.NilVal unless the step comes from an include with for_each).
// With results nil every step result is unknown. Only the steps named in refs are built into
// step.* and per_host.*: building every step's results for every host
// would make a run quadratic in hosts x steps. Call it when the step
// starts: the per_host.* values are taken then.
func (s *Scope) Step(results *Results, refs Refs, each cty.Value) *StepScope {
	ss := &StepScope{scope: s, results: results}
	if results != nil {
		results.indexed(s)
	}
	vars := map[string]cty.Value{}
	if each != cty.NilVal {
		vars["each"] = each
	}
	if len(refs.PerHost) > 0 {
		perHost := make(map[string]cty.Value, len(refs.PerHost))
		for _, name := range refs.PerHost {
			ty, ok := s.stepTypes[name]
			if !ok {
				continue
			}
			if results == nil {
				perHost[name] = cty.UnknownVal(cty.Map(ty))
			} else {
				perHost[name] = results.perHost(name, ty)
			}
		}
		vars["per_host"] = objectOrEmpty(perHost)
	}
	if len(refs.Step) > 0 {
		if results == nil {
			own := make(map[string]cty.Value, len(refs.Step))
			for _, name := range refs.Step {
				if ty, ok := s.stepTypes[name]; ok {
					own[name] = cty.UnknownVal(ty)
				}
			}
			vars["step"] = objectOrEmpty(own)
		} else {
			ss.step = refs.Step
		}
	}
	ss.ctx = s.shared().NewChild()
	ss.ctx.Variables = vars
	return ss
}

// Context returns the context of everything the step's hosts share. The
// caller must not modify it; use NewChild to add names.
func (ss *StepScope) Context() *hcl.EvalContext { return ss.ctx }

// Host returns the context the step sees on host: the shared one plus
// host.*, this host's step.* results and, when not cty.NilVal, self (the
// step's own result, for until, changed_when and failed_when).
func (ss *StepScope) Host(host string, self cty.Value) *hcl.EvalContext {
	s := ss.scope
	ctx := ss.ctx.NewChild()
	if len(ss.step) == 0 && self == cty.NilVal {
		// Only host.*: the same variables on every step, made once.
		ctx.Variables = s.hostOnly(host)
		return ctx
	}
	vars := make(map[string]cty.Value, 3)
	vars["host"] = s.hostVal(host)
	if len(ss.step) > 0 {
		own := make(map[string]cty.Value, len(ss.step))
		for _, name := range ss.step {
			if ty, ok := s.stepTypes[name]; ok {
				own[name] = ss.results.own(name, host, ty)
			}
		}
		vars["step"] = objectOrEmpty(own)
	}
	if self != cty.NilVal {
		vars["self"] = self
	}
	ctx.Variables = vars
	return ctx
}

// hostVal returns host's host.* object, made once per run (a host the
// inventory does not list sees its name only).
func (s *Scope) hostVal(host string) cty.Value {
	if hv, ok := s.hostVals[host]; ok {
		return hv
	}
	return hostValue(HostInfo{Name: host})
}

// hostOnly returns the variables {host = host.*} of host, made once per
// run and shared by every context that adds nothing else: the caller
// must not modify the map.
func (s *Scope) hostOnly(host string) map[string]cty.Value {
	if m, ok := s.hostVars[host]; ok {
		return m
	}
	return map[string]cty.Value{"host": s.hostVal(host)}
}

// shared returns the base context (var, group, inventory, path, local and
// the functions), built once: the engine uses it only after the locals are
// set, and nothing in it changes during a run.
func (s *Scope) shared() *hcl.EvalContext {
	s.sharedOnce.Do(func() { s.sharedCtx = s.Base() })
	return s.sharedCtx
}

// scopeCache holds what a Scope builds once for every step.
type scopeCache struct {
	sharedOnce sync.Once
	sharedCtx  *hcl.EvalContext
	// keyParts holds a *hostParts per traversal of host.*, by its
	// spelling: what memo keys read of each host, made once per run.
	keyParts sync.Map
	// hostTables holds a *hostTable per traversal of host.* that a
	// compiled expression reads, by its spelling; hostIndex the index of
	// each inventory host in Hosts, made with the first table.
	hostTables    sync.Map
	hostIndexOnce sync.Once
	hostIndex     map[string]int
}
