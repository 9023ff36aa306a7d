package program

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hcldec"
	"github.com/zclconf/go-cty/cty"

	"github.com/provadev/prova/engine/eval"
	"github.com/provadev/prova/engine/module"
)

// Validate checks every step statically against scope's static context:
// meta-argument types, the module body against the module's schema
// (unknown arguments with "did you mean", wrong types, undefined
// references) and the module's own Validate. No host is contacted.
func Validate(p *Program, scope *eval.Scope) hcl.Diagnostics {
	var diags hcl.Diagnostics
	static := scope.Static()
	for _, s := range p.Steps {
		ctx := static
		if s.Each != cty.NilVal {
			ctx = static.NewChild()
			ctx.Variables = map[string]cty.Value{"each": s.Each}
		}
		m, d := EvalMeta(s, ctx, true)
		diags = append(diags, d...)
		for _, pe := range []struct {
			e    hcl.Expression
			name string
		}{{s.When, "when"}, {s.Until, "until"}, {s.ChangedWhen, "changed_when"}, {s.FailedWhen, "failed_when"}} {
			if pe.e == nil {
				continue
			}
			v, d := pe.e.Value(ctx)
			diags = append(diags, d...)
			if !d.HasErrors() && v.Type() != cty.DynamicPseudoType && v.Type() != cty.Bool {
				diags = append(diags, &hcl.Diagnostic{
					Severity: hcl.DiagError,
					Summary:  "Invalid " + pe.name,
					Detail:   fmt.Sprintf("%s must be a condition (true or false), not %s.", pe.name, v.Type().FriendlyName()),
					Subject:  pe.e.Range().Ptr(),
				})
			}
		}
		if !s.badRefs {
			vd := ValidateBody(s, ctx)
			diags = append(diags, vd...)
			if !vd.HasErrors() {
				diags = append(diags, checkDestructive(s, ctx, m)...)
			}
		}
	}
	return diags
}

// ValidateBody decodes a step body with its module's schema under ctx and
// runs the module's static checks.
func ValidateBody(s *Step, ctx *hcl.EvalContext) hcl.Diagnostics {
	if be, ok := s.Module.(module.BodyEvaluator); ok {
		var diags hcl.Diagnostics
		if spec := s.ModuleSpec(); spec != nil {
			_, d := hcldec.Decode(s.Body, spec, ctx)
			diags = append(diags, d...)
		}
		if !diags.HasErrors() {
			_, _, d := be.EvalBody(s.Body, ctx)
			diags = append(diags, d...)
		}
		return diags
	}
	args, diags := DecodeArgs(s, ctx)
	if diags.HasErrors() {
		return diags
	}
	return append(diags, AttachRange(s.Module.Validate(args), s.DeclRange)...)
}

// AttachRange gives diagnostics from a module's Validate, which sees values
// and not source, the step's range when they have none.
func AttachRange(diags hcl.Diagnostics, rng hcl.Range) hcl.Diagnostics {
	for _, d := range diags {
		if d.Subject == nil {
			d.Subject = rng.Ptr()
		}
	}
	return diags
}

// DecodeArgs decodes a step's module arguments with its schema.
func DecodeArgs(s *Step, ctx *hcl.EvalContext) (cty.Value, hcl.Diagnostics) {
	return DecodeArgsSpec(s, s.ModuleSpec(), ctx)
}

// DecodeArgsSpec is DecodeArgs with the module's schema already asked for
// (s.ModuleSpec()), for callers that decode a step on many hosts.
func DecodeArgsSpec(s *Step, spec hcldec.Spec, ctx *hcl.EvalContext) (cty.Value, hcl.Diagnostics) {
	if spec == nil {
		_, diags := s.Body.Content(&hcl.BodySchema{})
		return cty.EmptyObjectVal, diags
	}
	return hcldec.Decode(s.Body, spec, ctx)
}
