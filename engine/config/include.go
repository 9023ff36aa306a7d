package config

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
)

// Include is an include block: the steps, variables and locals of another
// file, placed where the block stands.
//
//	include "gpfs_checks" {
//	  source = "lib/gpfs-checks.hcl"   # relative to the including file
//	  when   = var.run_gpfs            # optional: ANDed into every included step's when
//	}
type Include struct {
	Name   string
	Source string
	When   hcl.Expression
	// ForEach, when set, includes the file once per item; see forEach.
	ForEach   []EachItem
	DeclRange hcl.Range
	// at is how many steps of the including file came before the block.
	at   int
	file string
}

var includeSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{{Name: "source", Required: true}, {Name: "when"}, {Name: "for_each"}},
}

func decodeInclude(b *hcl.Block, at int, file string) (*Include, hcl.Diagnostics) {
	inc := &Include{Name: b.Labels[0], DeclRange: b.DefRange, at: at, file: file}
	content, diags := b.Body.Content(includeSchema)
	if diags.HasErrors() {
		return nil, diags
	}
	a := content.Attributes["source"]
	v, d := a.Expr.Value(nil)
	diags = append(diags, d...)
	if d.HasErrors() {
		return nil, diags
	}
	if s, err := convert.Convert(v, cty.String); err != nil || s.IsNull() || s.AsString() == "" {
		return nil, append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Invalid include source",
			Detail:   "source must be a literal path to an .hcl file, relative to this file.",
			Subject:  a.Expr.Range().Ptr(),
		})
	} else {
		inc.Source = s.AsString()
	}
	if w, ok := content.Attributes["when"]; ok {
		inc.When = w.Expr
	}
	if fe, ok := content.Attributes["for_each"]; ok {
		items, d := decodeForEach(fe)
		diags = append(diags, d...)
		if d.HasErrors() {
			return nil, diags
		}
		inc.ForEach = items
	}
	return inc, diags
}

// resolveIncludes reads every include of rb (recursively), merging its
// variables, locals and steps. seen holds the files on the current include
// chain, to report cycles.
func resolveIncludes(rb *Runbook, incs []*Include, seen map[string]bool) hcl.Diagnostics {
	var diags hcl.Diagnostics
	// Insert from the last include backwards so earlier positions stay valid
	// within each file; positions are per including file, so group them.
	type slot struct {
		inc   *Include
		steps []*Step
	}
	var slots []slot
	for _, inc := range incs {
		path := inc.Source
		if !filepath.IsAbs(path) {
			path = filepath.Join(filepath.Dir(inc.file), path)
		}
		abs, _ := filepath.Abs(path)
		if seen[abs] {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Include cycle",
				Detail:   fmt.Sprintf("%s is already being included on this chain.", inc.Source),
				Subject:  inc.DeclRange.Ptr(),
			})
			continue
		}
		src, err := os.ReadFile(path)
		if err != nil {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Cannot read included file",
				Detail:   err.Error(),
				Subject:  inc.DeclRange.Ptr(),
			})
			continue
		}
		instances := inc.ForEach
		if instances == nil {
			instances = []EachItem{{}}
		}
		var steps []*Step
		for i, item := range instances {
			// Every instance gets its own syntax tree, so that renaming its
			// step references leaves the others alone.
			sub, d := parseOne(path, src)
			if i == 0 {
				diags = append(diags, d...)
			}
			seen[abs] = true
			d = resolveIncludes(sub, sub.includes, seen)
			delete(seen, abs)
			if i == 0 {
				diags = append(diags, d...)
			}
			if inc.ForEach != nil {
				diags = append(diags, instantiate(sub, item)...)
			}
			if i == 0 {
				for name, s := range sub.Sources {
					rb.Sources[name] = s
				}
				for name, f := range sub.Files {
					rb.Files[name] = f
				}
				diags = append(diags, mergeVariables(rb, sub.Variables)...)
				rb.Locals = append(rb.Locals, sub.Locals...)
			}
			for _, s := range sub.Steps {
				if inc.When != nil {
					if s.When == nil {
						s.When = inc.When
					} else {
						s.When = &andExpr{a: inc.When, b: s.When}
					}
				}
				s.Included = inc.Name
			}
			steps = append(steps, sub.Steps...)
		}
		slots = append(slots, slot{inc: inc, steps: steps})
	}
	// Place included steps after the steps of the same file that preceded
	// the include block.
	var out []*Step
	pos := map[string]int{}
	si := 0
	for _, s := range rb.Steps {
		for si < len(slots) && slots[si].inc.file == s.DeclRange.Filename && pos[s.DeclRange.Filename] == slots[si].inc.at {
			out = append(out, slots[si].steps...)
			si++
		}
		out = append(out, s)
		pos[s.DeclRange.Filename]++
	}
	for ; si < len(slots); si++ {
		out = append(out, slots[si].steps...)
	}
	rb.Steps = out
	return diags
}

// mergeVariables adds an included file's variables. A variable declared in
// both files is one variable when both declare the same type; the first
// declaration's default and settings win.
func mergeVariables(rb *Runbook, vars []*Variable) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, v := range vars {
		var prev *Variable
		for _, p := range rb.Variables {
			if p.Name == v.Name {
				prev = p
			}
		}
		switch {
		case prev == nil:
			rb.Variables = append(rb.Variables, v)
		case !prev.Type.Equals(v.Type):
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Conflicting variable declarations",
				Detail: fmt.Sprintf("var.%s is declared at %s with type %s and here with type %s; an included file may redeclare a variable only with the same type.",
					v.Name, prev.DeclRange, prev.Type.FriendlyName(), v.Type.FriendlyName()),
				Subject: v.DeclRange.Ptr(),
			})
		case prev.Default == cty.NilVal && v.Default != cty.NilVal:
			prev.Default = v.Default
		}
	}
	return diags
}

// andExpr is "a && b" over two condition expressions from different
// places: an include's when and a step's own.
type andExpr struct{ a, b hcl.Expression }

func (e *andExpr) Value(ctx *hcl.EvalContext) (cty.Value, hcl.Diagnostics) {
	av, diags := e.a.Value(ctx)
	if diags.HasErrors() {
		return cty.DynamicVal, diags
	}
	if av.IsKnown() && !av.IsNull() && av.Type() == cty.Bool && av.False() {
		return cty.False, diags
	}
	bv, d := e.b.Value(ctx)
	diags = append(diags, d...)
	if d.HasErrors() {
		return cty.DynamicVal, diags
	}
	if !av.IsKnown() || !bv.IsKnown() {
		return cty.UnknownVal(cty.Bool), diags
	}
	if av.IsNull() || bv.IsNull() || av.Type() != cty.Bool || bv.Type() != cty.Bool {
		return cty.NullVal(cty.Bool), diags
	}
	return av.And(bv), diags
}

func (e *andExpr) Variables() []hcl.Traversal {
	return append(append([]hcl.Traversal(nil), e.a.Variables()...), e.b.Variables()...)
}
func (e *andExpr) Range() hcl.Range      { return e.b.Range() }
func (e *andExpr) StartRange() hcl.Range { return e.b.StartRange() }
