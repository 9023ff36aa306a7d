package assert

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"

	"github.com/provadev/prova/engine/module"
)

// result is one evaluated check. cond and ectx, when set, go into the
// failure diagnostic.
type result struct {
	name                string
	ok                  bool
	message             string
	measured, threshold string
	cond                hcl.Expression
	ectx                *hcl.EvalContext
}

// respond turns evaluated checks into the step's response.
func respond(results []result) module.ApplyResponse {
	var resp module.ApplyResponse
	failures := []cty.Value{}
	var first string
	for _, r := range results {
		c := module.Check{Name: r.name, Measured: r.measured, Threshold: r.threshold, Verdict: "pass"}
		if !r.ok {
			c.Verdict, c.Message = "fail", r.message
			failures = append(failures, cty.StringVal(r.message))
			if first == "" {
				first = r.message
			}
			d := &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Assertion failed", Detail: r.message,
				Expression: r.cond, EvalContext: r.ectx}
			if r.cond != nil {
				d.Subject = r.cond.Range().Ptr()
			}
			resp.Diagnostics = append(resp.Diagnostics, d)
		}
		resp.Checks = append(resp.Checks, c)
	}
	list := cty.ListValEmpty(cty.String)
	if len(failures) > 0 {
		list = cty.ListVal(failures)
		resp.Failed = true
		resp.Message = first
		if len(failures) > 1 {
			resp.Message = fmt.Sprintf("%d of %d checks failed: %s", len(failures), len(results), first)
		}
	}
	resp.Outputs = cty.ObjectVal(map[string]cty.Value{"passed": cty.BoolVal(!resp.Failed), "failures": list})
	return resp
}

// maxRender bounds a rendered measured or threshold value.
const maxRender = 80

// render writes a known value as a short string for the run record.
func render(v cty.Value) string {
	if v.ContainsMarked() {
		return "(sensitive)"
	}
	var s string
	switch {
	case v.IsNull():
		s = "null"
	case v.Type() == cty.String:
		s = v.AsString()
	case v.Type() == cty.Number:
		bf := v.AsBigFloat()
		if bf.IsInt() {
			s = bf.Text('f', 0)
		} else {
			f, _ := bf.Float64()
			s = strconv.FormatFloat(f, 'f', -1, 64)
		}
	case v.Type() == cty.Bool:
		s = strconv.FormatBool(v.True())
	default:
		b, err := ctyjson.Marshal(v, v.Type())
		if err != nil {
			s = v.Type().FriendlyName()
		} else {
			s = string(b)
		}
	}
	if len(s) > maxRender {
		cut := maxRender
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		s = strings.TrimSpace(s[:cut]) + "..."
	}
	return s
}
