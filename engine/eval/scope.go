package eval

import (
	"sort"

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
