package program

import (
	"fmt"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hcldec"
	"github.com/zclconf/go-cty/cty"

	"github.com/provadev/prova/engine/config"
	"github.com/provadev/prova/engine/eval"
	"github.com/provadev/prova/engine/module"
)

// Step is a runbook step bound to its module.
type Step struct {
	*config.Step
	Module     module.Module
	ResultType cty.Type
	// Deps are the names of the steps this one depends on, explicitly or by
	// reference, sorted.
	Deps []string
	// badRefs is set when the step refers to steps that do not exist;
	// Validate then skips its body, already reported.
	badRefs bool
	// id is config.Step.ID, made once at bind: the engine names the step
	// in every event of every host.
	id string
	// bound is set by Bind, which asks the module for its schema once
	// (spec) and collects the step's references once (refs, of which the
	// module body's are bodyRefs): validation, the dependency walk, the
	// barrier check and each run's step evaluation all read them, and a
	// module's Spec builds its schema anew on every call.
	bound    bool
	spec     hcldec.Spec
	refs     []hcl.Traversal
	bodyRefs []hcl.Traversal
}

// ModuleSpec is the module's argument schema (module.Module.Spec), asked
// once at bind.
func (s *Step) ModuleSpec() hcldec.Spec {
	if s.bound {
		return s.spec
	}
	return s.Module.Spec()
}

// References returns every traversal the step's expressions make: its
// meta-arguments and its module body, as collected at bind.
// The slice is shared: callers must not change it.
func (s *Step) References() []hcl.Traversal {
	if s.bound {
		return s.refs[:len(s.refs):len(s.refs)]
	}
	return references(s.Step, s.Module)
}

// BodyReferences returns the traversals of the module body alone
// (hcldec.Variables with the module's schema); nil without a schema. The
// slice is shared: callers must not change it.
func (s *Step) BodyReferences() []hcl.Traversal {
	if s.bound {
		return s.bodyRefs[:len(s.bodyRefs):len(s.bodyRefs)]
	}
	if spec := s.Module.Spec(); spec != nil {
		return hcldec.Variables(s.Body, spec)
	}
	return nil
}

// ID is "<module>.<name>", used in output (config.Step.ID, made once).
func (s *Step) ID() string {
	if s.id == "" {
		return s.Step.ID()
	}
	return s.id
}

// Program is a runbook bound to modules, with its steps in execution order.
type Program struct {
	Runbook *config.Runbook
	Steps   []*Step
	byName  map[string]*Step
}

// Step returns the bound step called name.
func (p *Program) Step(name string) (*Step, bool) {
	s, ok := p.byName[name]
	return s, ok
}

// ResultTypes maps step names to result types, for eval.NewScope.
func (p *Program) ResultTypes() map[string]cty.Type {
	m := make(map[string]cty.Type, len(p.Steps))
	for _, s := range p.Steps {
		m[s.Name] = s.ResultType
	}
	return m
}

// Bind looks up every step's module, collects dependencies and orders the
// steps. Unknown modules, references to undeclared steps and cycles are
// diagnostics with source ranges.
func Bind(rb *config.Runbook, reg *module.Registry) (*Program, hcl.Diagnostics) {
	var diags hcl.Diagnostics
	p := &Program{Runbook: rb, byName: map[string]*Step{}}
	var bound []*Step
	for _, cs := range rb.Steps {
		m, ok := reg.Lookup(cs.Module)
		if !ok {
			detail := fmt.Sprintf("There is no step module named %q.", cs.Module)
			if s := eval.DidYouMean(cs.Module, reg.IDs()); s != "" {
				detail += fmt.Sprintf(" Did you mean %q?", s)
			} else {
				detail += " Modules: " + strings.Join(reg.IDs(), ", ") + "."
			}
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Unknown step module",
				Detail:   detail,
				Subject:  cs.TypeRange.Ptr(),
			})
			continue
		}
		s := &Step{Step: cs, Module: m, ResultType: eval.ResultType(m.Outputs()), id: cs.ID(), bound: true, spec: m.Spec()}
		if s.spec != nil {
			s.bodyRefs = hcldec.Variables(cs.Body, s.spec)
		}
		s.refs = append(metaReferences(cs), s.bodyRefs...)
		if _, dup := p.byName[cs.Name]; !dup {
			p.byName[cs.Name] = s
		}
		bound = append(bound, s)
	}
	for _, s := range bound {
		d := p.collectDeps(s)
		s.badRefs = d.HasErrors()
		diags = append(diags, d...)
	}
	order, d := topoOrder(bound)
	diags = append(diags, d...)
	p.Steps = order
	return p, diags
}

// references returns every traversal a step's expressions make: its
// meta-arguments and its module body, asking the module for its schema
// (Step.References keeps what Bind found).
func references(s *config.Step, m module.Module) []hcl.Traversal {
	out := metaReferences(s)
	if spec := m.Spec(); spec != nil {
		out = append(out, hcldec.Variables(s.Body, spec)...)
	}
	return out
}

// metaReferences returns the traversals of a step's meta-arguments.
func metaReferences(s *config.Step) []hcl.Traversal {
	var out []hcl.Traversal
	for _, e := range []hcl.Expression{s.Hosts, s.RunOnce, s.When, s.Serial, s.Timeout, s.Retries,
		s.Delay, s.Until, s.OnFailure, s.MaxFailPercentage, s.Become, s.Tags, s.Severity, s.ChangedWhen, s.FailedWhen} {
		if e != nil {
			out = append(out, e.Variables()...)
		}
	}
	return out
}

func (p *Program) collectDeps(s *Step) hcl.Diagnostics {
	var diags hcl.Diagnostics
	deps := map[string]bool{}
	names := make([]string, 0, len(p.byName))
	for n := range p.byName {
		names = append(names, n)
	}
	check := func(name string, rng hcl.Range) {
		if name == s.Name {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Self-referential step",
				Detail:   fmt.Sprintf("Step %q refers to its own result. Use self.<attribute> in until, changed_when or failed_when.", s.Name),
				Subject:  rng.Ptr(),
			})
			return
		}
		if _, ok := p.byName[name]; !ok {
			detail := fmt.Sprintf("There is no step named %q in this runbook.", name)
			if sug := eval.DidYouMean(name, names); sug != "" {
				detail += fmt.Sprintf(" Did you mean %q?", sug)
			}
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Reference to undeclared step",
				Detail:   detail,
				Subject:  rng.Ptr(),
			})
			return
		}
		deps[name] = true
	}
	for _, tr := range s.DependsOn {
		if a, ok := tr[1].(hcl.TraverseAttr); ok {
			check(a.Name, tr.SourceRange())
		}
	}
	for _, tr := range s.References() {
		root := tr.RootName()
		if root != "step" && root != "per_host" {
			continue
		}
		if len(tr) < 2 {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Invalid step reference",
				Detail:   fmt.Sprintf("%s must be followed by a step name, like %s.configure.", root, root),
				Subject:  tr.SourceRange().Ptr(),
			})
			continue
		}
		a, ok := tr[1].(hcl.TraverseAttr)
		if !ok {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Invalid step reference",
				Detail:   fmt.Sprintf("Use %s.<name> to refer to a step's result.", root),
				Subject:  tr.SourceRange().Ptr(),
			})
			continue
		}
		check(a.Name, tr.SourceRange())
	}
	for d := range deps {
		s.Deps = append(s.Deps, d)
	}
	sort.Strings(s.Deps)
	return diags
}

// topoOrder sorts steps so that every step comes after its dependencies,
// keeping file order otherwise. A cycle is a diagnostic naming it.
func topoOrder(steps []*Step) ([]*Step, hcl.Diagnostics) {
	idx := map[string]int{}
	for i, s := range steps {
		idx[s.Name] = i
	}
	indeg := make([]int, len(steps))
	users := make([][]int, len(steps))
	for i, s := range steps {
		for _, d := range s.Deps {
			if j, ok := idx[d]; ok {
				indeg[i]++
				users[j] = append(users[j], i)
			}
		}
	}
	var out []*Step
	done := make([]bool, len(steps))
	for len(out) < len(steps) {
		next := -1
		for i := range steps {
			if !done[i] && indeg[i] == 0 {
				next = i
				break
			}
		}
		if next < 0 {
			break
		}
		done[next] = true
		out = append(out, steps[next])
		for _, u := range users[next] {
			indeg[u]--
		}
	}
	if len(out) == len(steps) {
		return out, nil
	}
	// Report one cycle: walk dependencies among the remaining steps.
	var diags hcl.Diagnostics
	start := -1
	for i := range steps {
		if !done[i] {
			start = i
			break
		}
	}
	seen := map[int]int{}
	var path []int
	cur := start
	for {
		if at, ok := seen[cur]; ok {
			path = path[at:]
			break
		}
		seen[cur] = len(path)
		path = append(path, cur)
		nxt := -1
		for _, d := range steps[cur].Deps {
			if j, ok := idx[d]; ok && !done[j] {
				nxt = j
				break
			}
		}
		if nxt < 0 {
			break
		}
		cur = nxt
	}
	names := make([]string, 0, len(path)+1)
	for _, i := range path {
		names = append(names, "step."+steps[i].Name)
	}
	if len(path) > 0 {
		names = append(names, "step."+steps[path[0]].Name)
	}
	diags = append(diags, &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  "Reference cycle between steps",
		Detail:   "These steps depend on each other in a cycle: " + strings.Join(names, " -> ") + ". Remove a reference or a depends_on entry.",
		Subject:  steps[start].NameRange.Ptr(),
	})
	for i := range steps {
		if !done[i] {
			out = append(out, steps[i])
		}
	}
	return out, diags
}
