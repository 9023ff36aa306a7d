package module

import (
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hcldec"
	"github.com/zclconf/go-cty/cty"
)

// Spec helpers that modules share when they build their Spec and results.

// WithDefault is an optional attribute of type ty that is def when left out.
func WithDefault(name string, ty cty.Type, def cty.Value) hcldec.Spec {
	return &hcldec.DefaultSpec{Primary: &hcldec.AttrSpec{Name: name, Type: ty}, Default: &hcldec.LiteralSpec{Value: def}}
}

// NonEmpty wraps a string attribute so that an empty value is an error
// (leaving the attribute out is the way to say nothing).
func NonEmpty(s *hcldec.AttrSpec) hcldec.Spec {
	return &hcldec.ValidateSpec{Wrapped: s, Func: func(v cty.Value) hcl.Diagnostics {
		if v.ContainsMarked() { // UnmarkDeep allocates even when there is nothing to remove
			v, _ = v.UnmarkDeep()
		}
		if v.IsKnown() && !v.IsNull() && v.AsString() == "" {
			return hcl.Diagnostics{{
				Severity: hcl.DiagError,
				Summary:  "Empty " + s.Name,
				Detail:   fmt.Sprintf("The %s argument must not be empty; remove it instead.", s.Name),
			}}
		}
		return nil
	}}
}

// StringList is s as a cty list of strings (an empty list, never null).
func StringList(s []string) cty.Value {
	if len(s) == 0 {
		return cty.ListValEmpty(cty.String)
	}
	vs := make([]cty.Value, len(s))
	for i, v := range s {
		vs[i] = cty.StringVal(v)
	}
	return cty.ListVal(vs)
}

// LastLine is the last non-blank line of a command's output, trimmed: what
// a one-line error message quotes.
func LastLine(s string) string {
	t := strings.TrimSpace(s)
	if t == "" {
		return ""
	}
	return strings.TrimSpace(t[strings.LastIndexByte(t, '\n')+1:])
}
