package config

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
)

func metaSchema() *hcl.BodySchema {
	s := &hcl.BodySchema{}
	for _, n := range MetaArguments {
		s.Attributes = append(s.Attributes, hcl.AttributeSchema{Name: n})
	}
	return s
}

var stepMetaSchema = metaSchema()

func decodeStep(b *hcl.Block) (*Step, hcl.Diagnostics) {
	s := &Step{
		Module:    b.Labels[0],
		Name:      b.Labels[1],
		DeclRange: b.DefRange,
		TypeRange: b.LabelRanges[0],
		NameRange: b.LabelRanges[1],
	}
	var diags hcl.Diagnostics
	if !validName(s.Name) {
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Invalid step name",
			Detail:   "A step name must start with a letter or underscore and may contain only letters, digits, underscores, and dashes.",
			Subject:  s.NameRange.Ptr(),
		})
	}
	content, rest, d := b.Body.PartialContent(stepMetaSchema)
	diags = append(diags, d...)
	s.Body = rest
	for name, a := range content.Attributes {
		switch name {
		case "hosts":
			s.Hosts = a.Expr
		case "run_once":
			s.RunOnce = a.Expr
		case "when":
			s.When = a.Expr
		case "depends_on":
			trs, d := decodeDependsOn(a)
			diags = append(diags, d...)
			s.DependsOn = trs
		case "serial":
			s.Serial = a.Expr
		case "timeout":
			s.Timeout = a.Expr
		case "retries":
			s.Retries = a.Expr
		case "delay":
			s.Delay = a.Expr
		case "until":
			s.Until = a.Expr
		case "on_failure":
			s.OnFailure = a.Expr
		case "max_fail_percentage":
			s.MaxFailPercentage = a.Expr
		case "become":
			s.Become = a.Expr
		case "tags":
			s.Tags = a.Expr
		case "severity":
			s.Severity = a.Expr
		case "changed_when":
			s.ChangedWhen = a.Expr
		case "failed_when":
			s.FailedWhen = a.Expr
		case "destructive":
			s.Destructive = a.Expr
		}
	}
	return s, diags
}

// decodeDependsOn reads depends_on = [step.a, step.b] as traversals.
func decodeDependsOn(a *hcl.Attribute) ([]hcl.Traversal, hcl.Diagnostics) {
	exprs, diags := hcl.ExprList(a.Expr)
	if diags.HasErrors() {
		return nil, diags
	}
	var out []hcl.Traversal
	for _, e := range exprs {
		tr, d := hcl.AbsTraversalForExpr(e)
		if d.HasErrors() || len(tr) != 2 || tr.RootName() != "step" {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Invalid depends_on reference",
				Detail:   fmt.Sprintf("depends_on takes references to steps, like step.%s; each element must name one step.", "configure"),
				Subject:  e.Range().Ptr(),
			})
			continue
		}
		out = append(out, tr)
	}
	return out, diags
}

// DependsOnNames returns the step names in depends_on.
func (s *Step) DependsOnNames() []string {
	out := make([]string, 0, len(s.DependsOn))
	for _, tr := range s.DependsOn {
		if a, ok := tr[1].(hcl.TraverseAttr); ok {
			out = append(out, a.Name)
		}
	}
	return out
}
