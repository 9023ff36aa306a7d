package scenario

import (
	"fmt"
	"net/netip"
	"slices"
	"strings"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
)

// attrs decodes the attributes of one block. Each getter reports whether
// the attribute was present; a null value is present and leaves the zero
// value (ofed = null means "not installed").
type attrs map[string]*hcl.Attribute

func (a attrs) value(name string, ty cty.Type, diags *hcl.Diagnostics) (cty.Value, bool) {
	at, ok := a[name]
	if !ok {
		return cty.NilVal, false
	}
	v, d := at.Expr.Value(nil)
	*diags = append(*diags, d...)
	if d.HasErrors() {
		return cty.NilVal, false
	}
	cv, err := convert.Convert(v, ty)
	if err != nil {
		*diags = append(*diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid value for " + name,
			Detail: fmt.Sprintf("%s: %v.", name, err), Subject: at.Expr.StartRange().Ptr(), Context: at.Expr.Range().Ptr()})
		return cty.NilVal, false
	}
	if !cv.IsWhollyKnown() {
		*diags = append(*diags, a.diag(name, "Invalid value for "+name, "The value must be known: scenarios have no variables."))
		return cty.NilVal, false
	}
	return cv, true
}

func (a attrs) diag(name, summary, detail string) *hcl.Diagnostic {
	at := a[name]
	return &hcl.Diagnostic{Severity: hcl.DiagError, Summary: summary, Detail: detail,
		Subject: at.Expr.StartRange().Ptr(), Context: at.Expr.Range().Ptr()}
}

func (a attrs) str(name string, dst *string, diags *hcl.Diagnostics, allowed ...string) bool {
	v, ok := a.value(name, cty.String, diags)
	if !ok {
		return false
	}
	if v.IsNull() {
		*dst = ""
		return true
	}
	s := v.AsString()
	if len(allowed) > 0 && !slices.Contains(allowed, s) {
		*diags = append(*diags, a.diag(name, "Invalid value for "+name,
			fmt.Sprintf("%s must be one of %s; got %q.", name, strings.Join(allowed, ", "), s)))
		return false
	}
	*dst = s
	return true
}

func (a attrs) num(name string, dst *int, lo, hi int, diags *hcl.Diagnostics) bool {
	v, ok := a.value(name, cty.Number, diags)
	if !ok || v.IsNull() {
		return false
	}
	bf := v.AsBigFloat()
	n, acc := bf.Int64()
	if !bf.IsInt() || acc != 0 || n < int64(lo) || n > int64(hi) {
		*diags = append(*diags, a.diag(name, "Invalid value for "+name,
			fmt.Sprintf("%s must be a whole number from %d to %d.", name, lo, hi)))
		return false
	}
	*dst = int(n)
	return true
}

func (a attrs) boolean(name string, dst *bool, diags *hcl.Diagnostics) bool {
	v, ok := a.value(name, cty.Bool, diags)
	if !ok || v.IsNull() {
		return false
	}
	*dst = v.True()
	return true
}

func (a attrs) list(name string, dst *[]string, diags *hcl.Diagnostics) bool {
	v, ok := a.value(name, cty.List(cty.String), diags)
	if !ok {
		return false
	}
	*dst = nil
	if v.IsNull() {
		return true
	}
	for _, e := range v.AsValueSlice() {
		if e.IsNull() {
			*diags = append(*diags, a.diag(name, "Invalid value for "+name, name+" must not contain null."))
			return false
		}
		*dst = append(*dst, e.AsString())
	}
	return true
}

func (a attrs) strMap(name string, dst *map[string]string, diags *hcl.Diagnostics, allowed ...string) bool {
	v, ok := a.value(name, cty.Map(cty.String), diags)
	if !ok || v.IsNull() {
		return false
	}
	m := map[string]string{}
	for k, e := range v.AsValueMap() {
		if e.IsNull() || !slices.Contains(allowed, e.AsString()) {
			*diags = append(*diags, a.diag(name, "Invalid value for "+name,
				fmt.Sprintf("%s[%q] must be one of %s.", name, k, strings.Join(allowed, ", "))))
			return false
		}
		m[k] = e.AsString()
	}
	*dst = m
	return true
}

func (a attrs) duration(name string, dst *time.Duration, diags *hcl.Diagnostics) bool {
	var s string
	if !a.str(name, &s, diags) {
		return false
	}
	if s == "" {
		*dst = 0
		return true
	}
	d, err := time.ParseDuration(s)
	if err != nil || d < 0 {
		*diags = append(*diags, a.diag(name, "Invalid duration for "+name,
			fmt.Sprintf(`%s must be a duration like "500ms" or "3s"; got %q.`, name, s)))
		return false
	}
	*dst = d
	return true
}

func netPrefix(cidr string) (string, bool) {
	p, err := netip.ParsePrefix(cidr)
	if err != nil || !p.Addr().Is4() || p.Bits() != 16 {
		return "", false
	}
	b := p.Addr().As4()
	return fmt.Sprintf("%d.%d", b[0], b[1]), true
}
