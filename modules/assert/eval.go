package assert

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"

	"github.com/provadev/prova/engine/eval"
	"github.com/provadev/prova/engine/module"
)

// source is one check as written: its expressions, not yet evaluated.
type source struct {
	name                           string
	cond, msg, measured, threshold hcl.Expression // measured, threshold may be nil
}

// EvalBody evaluates every check in body with ectx. known is false when any
// condition, message or measured value depends on something not known yet.
// Errors in the body (a condition that is not a bool) are returned as diags;
// a condition that does not hold is resp.Failed with one "Assertion failed"
// diagnostic carrying the condition expression and ectx, so that the
// renderer can show the values the condition referenced.
func (a *Assert) EvalBody(body hcl.Body, ectx *hcl.EvalContext) (module.ApplyResponse, bool, hcl.Diagnostics) {
	srcs, diags := sources(body)
	if diags.HasErrors() {
		return module.ApplyResponse{}, true, diags
	}
	known := true
	results := make([]result, 0, len(srcs))
	for _, s := range srcs {
		r, k, d := evalOne(s, ectx)
		diags = append(diags, d...)
		known = known && k
		results = append(results, r)
	}
	if !known || diags.HasErrors() {
		return module.ApplyResponse{}, known, diags
	}
	return respond(results), true, diags
}

func sources(body hcl.Body) ([]source, hcl.Diagnostics) {
	content, diags := body.Content(rootSchema())
	if diags.HasErrors() {
		return nil, diags
	}
	var srcs []source
	cond, hasCond := content.Attributes["condition"]
	msg, hasMsg := content.Attributes["error_message"]
	switch {
	case hasCond && hasMsg:
		srcs = append(srcs, source{cond: cond.Expr, msg: msg.Expr})
	case hasCond:
		diags = append(diags, missing("error_message", cond.Range))
	case hasMsg:
		diags = append(diags, missing("condition", msg.Range))
	}
	for i, b := range content.Blocks {
		bc, d := b.Body.Content(checkSchema())
		diags = append(diags, d...)
		if d.HasErrors() {
			continue
		}
		s := source{name: blockName(i), cond: bc.Attributes["condition"].Expr, msg: bc.Attributes["error_message"].Expr}
		if at, ok := bc.Attributes["name"]; ok {
			v, d := at.Expr.Value(nil)
			if v, err := convert.Convert(v, cty.String); d.HasErrors() || err != nil || v.IsNull() || !v.IsKnown() {
				diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid check name",
					Detail: "name must be a literal string.", Subject: at.Expr.Range().Ptr()})
			} else {
				s.name = v.AsString()
			}
		}
		if at, ok := bc.Attributes["measured"]; ok {
			s.measured = at.Expr
		}
		if at, ok := bc.Attributes["threshold"]; ok {
			s.threshold = at.Expr
		}
		srcs = append(srcs, s)
	}
	if len(srcs) == 0 && !diags.HasErrors() {
		diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "No assertion",
			Detail: "Set condition and error_message, or add one or more check blocks.", Subject: body.MissingItemRange().Ptr()})
	}
	return srcs, diags
}

func missing(name string, near hcl.Range) *hcl.Diagnostic {
	return &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Missing " + name,
		Detail: "condition and error_message go together.", Subject: near.Ptr()}
}

// evalOne evaluates one check.
func evalOne(s source, ectx *hcl.EvalContext) (result, bool, hcl.Diagnostics) {
	r := result{name: s.name, cond: s.cond, ectx: ectx}
	cond, diags := eval.Value(s.cond, ectx)
	if diags.HasErrors() {
		return r, true, diags
	}
	if !cond.IsKnown() {
		return r, false, nil
	}
	cond, _ = cond.Unmark()
	bad := func(detail string) hcl.Diagnostics {
		return hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Invalid condition", Detail: detail,
			Subject: s.cond.Range().Ptr(), Expression: s.cond, EvalContext: ectx}}
	}
	if cond.IsNull() {
		return r, true, bad("The condition is null; it must be true or false.")
	}
	b, err := convert.Convert(cond, cty.Bool)
	if err != nil {
		return r, true, bad(fmt.Sprintf("The condition must be true or false, not %s.", cond.Type().FriendlyName()))
	}
	r.ok = b.True()

	known := true
	msg, d := eval.Value(s.msg, ectx)
	diags = append(diags, d...)
	switch {
	case d.HasErrors():
	case !msg.IsWhollyKnown():
		known = false
	case msg.ContainsMarked():
		r.message = "(the error message includes sensitive values and is not shown)"
	default:
		m, err := convert.Convert(msg, cty.String)
		if err != nil || m.IsNull() {
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid error message",
				Detail: "error_message must be a string.", Subject: s.msg.Range().Ptr(), Expression: s.msg, EvalContext: ectx})
		} else {
			r.message = m.AsString()
		}
	}
	for _, v := range []struct {
		expr hcl.Expression
		out  *string
	}{{s.measured, &r.measured}, {s.threshold, &r.threshold}} {
		if v.expr == nil {
			continue
		}
		val, d := eval.Value(v.expr, ectx)
		diags = append(diags, d...)
		if !val.IsWhollyKnown() {
			known = false
		} else if !d.HasErrors() {
			*v.out = render(val)
		}
	}
	return r, known, diags
}
