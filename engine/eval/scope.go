package eval

import (
	"runtime"
	"sort"
	"sync"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
)

// HostInfo is what expressions see of a host as host.* .
type HostInfo struct {
	Name    string
	Address string
	Groups  []string
	Vars    map[string]cty.Value
}

// CommonResultAttrs are the attributes every step result has, whatever the
// module.
var CommonResultAttrs = map[string]cty.Type{
	"changed": cty.Bool,
	"failed":  cty.Bool,
	"skipped": cty.Bool,
	"rc":      cty.Number,
	"stdout":  cty.String,
	"stderr":  cty.String,
	"message": cty.String,
	"host":    cty.String,
}

// ResultType merges the common attributes with a module's outputs type.
func ResultType(outputs cty.Type) cty.Type {
	attrs := map[string]cty.Type{}
	if outputs.IsObjectType() {
		for k, t := range outputs.AttributeTypes() {
			attrs[k] = t
		}
	}
	for k, t := range CommonResultAttrs {
		attrs[k] = t
	}
	return cty.Object(attrs)
}

// Scope holds everything that does not change per host: variables, locals,
// the inventory as values, and the functions. Build it once per run.
type Scope struct {
	Vars    map[string]cty.Value
	Locals  map[string]cty.Value
	Hosts   []HostInfo
	BaseDir string

	funcs     map[string]function.Function
	groups    cty.Value
	inventory cty.Value
	hostVals  map[string]cty.Value
	hostVars  map[string]map[string]cty.Value // {host = hostVals[name]}, by host name
	// stepTypes holds each step's result type, by step name.
	stepTypes map[string]cty.Type
	scopeCache
}

// NewScope builds a scope. groups maps group names to member host names in
// inventory order; stepTypes maps step names to result types.
func NewScope(vars map[string]cty.Value, hosts []HostInfo, groups map[string][]string, baseDir string, stepTypes map[string]cty.Type) *Scope {
	s := &Scope{Vars: vars, Hosts: hosts, BaseDir: baseDir, funcs: Functions(), stepTypes: stepTypes,
		hostVals: make(map[string]cty.Value, len(hosts)), hostVars: make(map[string]map[string]cty.Value, len(hosts))}
	g := map[string]cty.Value{}
	for name, members := range groups {
		g[name] = stringList(members)
	}
	s.groups = cty.ObjectVal(g)
	names := make([]string, len(hosts))
	for i, h := range hosts {
		names[i] = h.Name
		s.hostVals[h.Name] = hostValue(h)
		s.hostVars[h.Name] = map[string]cty.Value{"host": s.hostVals[h.Name]}
	}
	hostObjs := cty.EmptyObjectVal
	if len(s.hostVals) > 0 {
		hostObjs = cty.ObjectVal(s.hostVals)
	}
	s.inventory = cty.ObjectVal(map[string]cty.Value{"hosts": stringList(names), "host": hostObjs})
	return s
}

func hostValue(h HostInfo) cty.Value {
	groups := append([]string(nil), h.Groups...)
	sort.Strings(groups)
	vars := cty.EmptyObjectVal
	if len(h.Vars) > 0 {
		vars = cty.ObjectVal(h.Vars)
	}
	addr := h.Address
	if addr == "" {
		addr = h.Name
	}
	return cty.ObjectVal(map[string]cty.Value{
		"name":    cty.StringVal(h.Name),
		"address": cty.StringVal(addr),
		"groups":  stringList(groups),
		"vars":    vars,
	})
}

func stringList(ss []string) cty.Value {
	if len(ss) == 0 {
		return cty.ListValEmpty(cty.String)
	}
	vs := make([]cty.Value, len(ss))
	for i, s := range ss {
		vs[i] = cty.StringVal(s)
	}
	return cty.ListVal(vs)
}

// Base returns the context without host or step results: var, group,
// inventory, path, and local once locals are set.
func (s *Scope) Base() *hcl.EvalContext {
	v := map[string]cty.Value{
		"var":       objectOrEmpty(s.Vars),
		"group":     s.groups,
		"inventory": s.inventory,
		"path":      cty.ObjectVal(map[string]cty.Value{"runbook": cty.StringVal(s.BaseDir)}),
	}
	if s.Locals != nil {
		v["local"] = objectOrEmpty(s.Locals)
	}
	return &hcl.EvalContext{Variables: v, Functions: s.funcs}
}

func objectOrEmpty(m map[string]cty.Value) cty.Value {
	if len(m) == 0 {
		return cty.EmptyObjectVal
	}
	return cty.ObjectVal(m)
}

// Host returns the context a step sees on host: the base plus host.*,
// step.* (this host's results) and per_host.* (every host's). With results
// nil (plan), every step result is unknown. self, when not NilVal, is the
// current step's own result (until, changed_when, failed_when).
func (s *Scope) Host(host string, results *Results, self cty.Value) *hcl.EvalContext {
	names := make([]string, 0, len(s.stepTypes))
	for name := range s.stepTypes {
		names = append(names, name)
	}
	return s.HostSteps(host, results, self, names)
}

// HostSteps is Host with only the named steps' results in step.* and
// per_host.*: a step's expressions can refer only to the steps it depends
// on, and building every step's results for every host would make a run
// quadratic in hosts x steps.
func (s *Scope) HostSteps(host string, results *Results, self cty.Value, steps []string) *hcl.EvalContext {
	ctx := s.Base()
	ctx.Variables["host"] = s.hostVal(host)
	stepVals := make(map[string]cty.Value, len(steps))
	perHost := make(map[string]cty.Value, len(steps))
	for _, name := range steps {
		ty, ok := s.stepTypes[name]
		if !ok {
			continue
		}
		if results == nil {
			stepVals[name] = cty.UnknownVal(ty)
			perHost[name] = cty.UnknownVal(cty.Map(ty))
			continue
		}
		stepVals[name], perHost[name] = results.values(name, host, ty)
	}
	ctx.Variables["step"] = objectOrEmpty(stepVals)
	ctx.Variables["per_host"] = objectOrEmpty(perHost)
	if self != cty.NilVal {
		ctx.Variables["self"] = self
	}
	return ctx
}

// StaticBase is Base for validation without an inventory: group and
// inventory are unknown, so locals that index them evaluate to unknown
// instead of failing.
func (s *Scope) StaticBase() *hcl.EvalContext {
	ctx := s.Base()
	ctx.Variables["group"] = cty.UnknownVal(cty.Map(cty.List(cty.String)))
	ctx.Variables["inventory"] = cty.UnknownVal(cty.Object(map[string]cty.Type{"hosts": cty.List(cty.String), "host": cty.DynamicPseudoType}))
	return ctx
}

// Static returns a context for validation without an inventory: host and
// group are unknown, step results unknown.
func (s *Scope) Static() *hcl.EvalContext {
	ctx := s.Host("", nil, cty.NilVal)
	ctx.Variables["host"] = cty.UnknownVal(cty.Object(map[string]cty.Type{
		"name": cty.String, "address": cty.String, "groups": cty.List(cty.String), "vars": cty.DynamicPseudoType,
	}))
	ctx.Variables["group"] = cty.UnknownVal(cty.Map(cty.List(cty.String)))
	ctx.Variables["inventory"] = cty.UnknownVal(cty.Object(map[string]cty.Type{"hosts": cty.List(cty.String), "host": cty.DynamicPseudoType}))
	ctx.Variables["self"] = cty.DynamicVal
	return ctx
}

// Results holds step results as they arrive during apply. It is safe for
// concurrent use.
type Results struct {
	mu     sync.Mutex
	byStep map[string]map[string]cty.Value
	// later holds results recorded by what they are (skipped, planned)
	// rather than as values, per step and host: the value is made when
	// first read and then moves to byStep. Most steps' results are never
	// read, and a result object costs more than the rest of a planned
	// host-step.
	later map[string]map[string]laterResult
	// laterTypes holds the result type of each step with later results
	// (the type every record of the step gives).
	laterTypes map[string]cty.Type
	// shared maps a run_once step to the one host that ran it; every host
	// sees that result as its own.
	shared map[string]string
	// perHostCache memoises per_host maps per step (rebuilt after a Set).
	perHostCache map[string]cty.Value
	// hosts is the most hosts a step has had results for so far: a new
	// step's maps are made that large at once rather than grown.
	hosts int
}

// NewResults returns an empty store.
func NewResults() *Results {
	return &Results{byStep: map[string]map[string]cty.Value{}, later: map[string]map[string]laterResult{}, laterTypes: map[string]cty.Type{},
		shared: map[string]string{}, perHostCache: map[string]cty.Value{}}
}

// Set records host's result of step.
func (r *Results) Set(step, host string, v cty.Value) {
	r.mu.Lock()
	defer r.mu.Unlock()
	m := r.byStep[step]
	if m == nil {
		m = make(map[string]cty.Value, r.hosts)
		r.byStep[step] = m
	}
	m[host] = v
	r.hosts = max(r.hosts, len(m))
	delete(r.later[step], host)
	delete(r.perHostCache, step)
}

// SetSkipped records that step did not run on host: its result is
// SkippedResult(ty, host), made when first read.
func (r *Results) SetSkipped(step, host string, ty cty.Type) {
	r.setLater(step, host, ty, laterResult{kind: laterSkipped})
}

// SetUnknown records that host's result of step is wholly unknown:
// cty.UnknownVal(ty), made when first read.
func (r *Results) SetUnknown(step, host string, ty cty.Type) {
	r.setLater(step, host, ty, laterResult{kind: laterUnknown})
}

// SetPlanned records that a module planned step on host, to change it or
// not: its result is PlannedResult(ty, host, changed), made when first
// read.
func (r *Results) SetPlanned(step, host string, ty cty.Type, changed bool) {
	k := laterPlanned
	if changed {
		k = laterPlannedChange
	}
	r.setLater(step, host, ty, laterResult{kind: k})
}

// SetFunc records host's result of step as what make returns, called
// once, when the result is first read (under the store's lock, and
// alongside other results' make when a step's results are made at once:
// make must be quick, pure and not use the store).
func (r *Results) SetFunc(step, host string, make func() cty.Value) {
	r.setLater(step, host, cty.NilType, laterResult{kind: laterMade, make: make})
}

// SetApplied records host's result of step, of result type ty, as what it
// is made of: AppliedResult(ty, host, a), made when first read; an
// attribute of it is read without making it. It is meant for result types
// of the common attributes only (CommonResultAttrs).
func (r *Results) SetApplied(step, host string, ty cty.Type, a *Applied) {
	r.setLater(step, host, ty, laterResult{kind: laterApplied, applied: a})
}

func (r *Results) setLater(step, host string, ty cty.Type, l laterResult) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if ty != cty.NilType {
		r.laterTypes[step] = ty
	}
	m := r.later[step]
	if m == nil {
		m = make(map[string]laterResult, r.hosts)
		r.later[step] = m
	}
	m[host] = l
	r.hosts = max(r.hosts, len(m))
	delete(r.byStep[step], host)
	delete(r.perHostCache, step)
}

// settle makes the values of step's later results and moves them to
// byStep. The caller holds r.mu.
func (r *Results) settle(step string) {
	l := r.later[step]
	if len(l) == 0 {
		return
	}
	m := r.byStep[step]
	if m == nil {
		m = make(map[string]cty.Value, len(l))
		r.byStep[step] = m
	}
	ty := r.laterTypes[step]
	if len(l) < parallelSettle || runtime.GOMAXPROCS(0) == 1 {
		for host, lr := range l {
			m[host] = lr.value(ty, host)
		}
	} else {
		settleParallel(m, l, ty)
	}
	delete(r.later, step)
}

// parallelSettle is the fewest later results settle makes on every core:
// the first per_host read of a step makes every host's result object at
// once, while the run waits for it (1,000 objects: milliseconds).
const parallelSettle = 256

// settleParallel makes the values of l into m, GOMAXPROCS goroutines each
// making a share (a result's value is made from the record alone, so they
// can be made in any order).
func settleParallel(m map[string]cty.Value, l map[string]laterResult, ty cty.Type) {
	hosts := make([]string, 0, len(l))
	for h := range l {
		hosts = append(hosts, h)
	}
	vals := make([]cty.Value, len(hosts))
	workers := min(runtime.GOMAXPROCS(0), len(hosts))
	var wg sync.WaitGroup
	for w := range workers {
		lo, hi := w*len(hosts)/workers, (w+1)*len(hosts)/workers
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := lo; i < hi; i++ {
				vals[i] = l[hosts[i]].value(ty, hosts[i])
			}
		}()
	}
	wg.Wait()
	for i, h := range hosts {
		m[h] = vals[i]
	}
}

// Share makes host's result of a run_once step every host's result.
func (r *Results) Share(step, host string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.shared[step] = host
}

// Get returns host's result of step.
func (r *Results) Get(step, host string) (cty.Value, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.settle(step)
	v, ok := r.byStep[step][host]
	return v, ok
}

func (r *Results) values(step, host string, ty cty.Type) (cty.Value, cty.Value) {
	return r.own(step, host, ty), r.perHost(step, ty)
}

// own returns host's result of step: its own, the shared one of a run_once
// step, or a skipped result when the step did not run on host. Only the
// result it returns is made, not the step's other hosts'.
func (r *Results) own(step, host string, ty cty.Type) cty.Value {
	r.mu.Lock()
	own, ok := r.settleHost(step, host)
	if !ok {
		if h, shared := r.shared[step]; shared {
			own, ok = r.settleHost(step, h)
		}
	}
	r.mu.Unlock()
	if !ok {
		own = SkippedResult(ty, host)
	}
	return own
}

// settleHost returns host's own result of step, making it if it was
// recorded by kind. The caller holds r.mu.
func (r *Results) settleHost(step, host string) (cty.Value, bool) {
	if v, ok := r.byStep[step][host]; ok {
		return v, true
	}
	lr, ok := r.later[step][host]
	if !ok {
		return cty.NilVal, false
	}
	v := lr.value(r.laterTypes[step], host)
	m := r.byStep[step]
	if m == nil {
		m = map[string]cty.Value{}
		r.byStep[step] = m
	}
	m[host] = v
	delete(r.later[step], host)
	return v, true
}

// ownAt returns what traversal rest finds in host's result of step (as
// own gives it), without making a result recorded by kind when rest starts
// with one of its attributes. ok is false when rest does not resolve.
func (r *Results) ownAt(step, host string, ty cty.Type, rest hcl.Traversal) (cty.Value, bool) {
	r.mu.Lock()
	lr, later := r.later[step][host]
	lty := r.laterTypes[step]
	r.mu.Unlock()
	if later {
		if name, ok := attrName(rest, 0); ok {
			if v, ok := lr.attr(lty, name, host); ok {
				return traverseRel(v, rest[1:])
			}
		}
	}
	return traverseRel(r.own(step, host, ty), rest)
}

// traverseRel applies rest to v as hcl does; ok is false where hcl gives
// an error. An attribute of a known object that has it is taken directly
// (what hcl.GetAttr does then, without its checks' allocations).
func traverseRel(v cty.Value, rest hcl.Traversal) (cty.Value, bool) {
	for len(rest) > 0 {
		a, ok := rest[0].(hcl.TraverseAttr)
		ty := v.Type()
		if !ok || v.IsMarked() || !v.IsKnown() || v.IsNull() || !ty.IsObjectType() || !ty.HasAttribute(a.Name) {
			break
		}
		v, rest = v.GetAttr(a.Name), rest[1:]
	}
	if len(rest) == 0 {
		return v, true
	}
	v, diags := rest.TraverseRel(v)
	return v, !diags.HasErrors()
}

// perHost returns every host's result of step as a map by host name,
// memoised until the next Set of that step.
func (r *Results) perHost(step string, ty cty.Type) cty.Value {
	r.mu.Lock()
	defer r.mu.Unlock()
	ph, cached := r.perHostCache[step]
	if !cached {
		r.settle(step)
		m := r.byStep[step]
		if len(m) == 0 {
			ph = cty.MapValEmpty(ty)
		} else {
			ph = cty.MapVal(copyMap(m))
		}
		r.perHostCache[step] = ph
	}
	return ph
}

// SkippedResult is the result of a step that did not run on host.
func SkippedResult(ty cty.Type, host string) cty.Value {
	attrs := make(map[string]cty.Value, len(ty.AttributeTypes()))
	for k, t := range ty.AttributeTypes() {
		attrs[k] = cty.NullVal(t)
	}
	attrs["changed"] = cty.False
	attrs["failed"] = cty.False
	attrs["skipped"] = cty.True
	attrs["rc"] = cty.NullVal(cty.Number)
	attrs["stdout"] = cty.StringVal("")
	attrs["stderr"] = cty.StringVal("")
	attrs["message"] = cty.StringVal("")
	attrs["host"] = cty.StringVal(host)
	return cty.ObjectVal(attrs)
}

// WithEach adds each.key and each.value to ctx for a step made by an
// include with for_each (each is cty.NilVal for other steps).
func WithEach(ctx *hcl.EvalContext, each cty.Value) *hcl.EvalContext {
	if each != cty.NilVal {
		ctx.Variables["each"] = each
	}
	return ctx
}
