package waiver

import (
	"fmt"
	"os"
	"regexp"
	"strings"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
)

var fileSchema = &hcl.BodySchema{
	Blocks: []hcl.BlockHeaderSchema{{Type: "waiver", LabelNames: []string{"name"}}},
}

var waiverSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{
		{Name: "assertion", Required: true},
		{Name: "hosts"},
		{Name: "justification", Required: true},
		{Name: "expires", Required: true},
	},
}

// Load reads and checks a waiver file. The returned set is nil only when
// the file could not be read; with error diagnostics it holds the waivers
// that were read correctly, and always the file's source.
func Load(filename string) (*Set, hcl.Diagnostics) {
	src, err := os.ReadFile(filename)
	if err != nil {
		return nil, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Cannot read waiver file",
			Detail: fmt.Sprintf("read waivers: %v", err)}}
	}
	return Parse(src, filename)
}

// Parse reads waivers from src; filename is used in diagnostics.
func Parse(src []byte, filename string) (*Set, hcl.Diagnostics) {
	set := &Set{File: filename, Source: src}
	f, diags := hclsyntax.ParseConfig(src, filename, hcl.InitialPos)
	if diags.HasErrors() {
		return set, diags
	}
	content, d := f.Body.Content(fileSchema)
	diags = append(diags, d...)
	seen := map[string]hcl.Range{}
	for _, b := range content.Blocks {
		name := b.Labels[0]
		if prev, dup := seen[name]; dup {
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Duplicate waiver",
				Detail: fmt.Sprintf("A waiver named %q was already declared at %s.", name, prev), Subject: b.LabelRanges[0].Ptr()})
			continue
		}
		seen[name] = b.DefRange
		w, d := decodeWaiver(b)
		diags = append(diags, d...)
		if !d.HasErrors() {
			set.Waivers = append(set.Waivers, w)
		}
	}
	return set, diags
}

func decodeWaiver(b *hcl.Block) (*Waiver, hcl.Diagnostics) {
	w := &Waiver{Name: b.Labels[0], DeclRange: b.DefRange}
	content, diags := b.Body.Content(waiverSchema)
	if diags.HasErrors() {
		return w, diags
	}
	if a := content.Attributes["assertion"]; a != nil {
		s, d := stringAttr(a)
		diags = append(diags, d...)
		w.Assertion = s
		re, d := checkGlob(a, s)
		diags = append(diags, d...)
		w.assertionRE = re
	}
	if a := content.Attributes["hosts"]; a != nil {
		hosts, d := hostsAttr(a)
		diags = append(diags, d...)
		w.Hosts = hosts
		for _, h := range hosts {
			re, d := checkGlob(a, h)
			diags = append(diags, d...)
			w.hostREs = append(w.hostREs, re)
		}
	}
	if a := content.Attributes["justification"]; a != nil {
		s, d := stringAttr(a)
		diags = append(diags, d...)
		w.Justification = strings.TrimSpace(s)
		if !d.HasErrors() && w.Justification == "" {
			diags = append(diags, attrError(a, "Empty justification",
				"A waiver must say why the failure is accepted (a change ticket, a planned upgrade)."))
		}
	}
	if a := content.Attributes["expires"]; a != nil {
		s, d := stringAttr(a)
		diags = append(diags, d...)
		if !d.HasErrors() {
			t, err := ParseExpiry(s)
			if err != nil {
				diags = append(diags, attrError(a, "Invalid expiry date", err.Error()))
			}
			w.Expires, w.ExpiresText = t, s
		}
	}
	return w, diags
}

// ParseExpiry reads "2026-12-31" (the waiver holds through that day, UTC)
// or an RFC 3339 date-time, and returns the first instant it no longer
// holds.
func ParseExpiry(s string) (time.Time, error) {
	if t, err := time.Parse(time.DateOnly, s); err == nil {
		return t.AddDate(0, 0, 1), nil
	}
	if t, err := time.Parse(time.RFC3339, s); err == nil {
		return t, nil
	}
	return time.Time{}, fmt.Errorf("expires = %q is neither a date (2026-12-31) nor an RFC 3339 date-time (2026-12-31T18:00:00Z)", s)
}

func attrError(a *hcl.Attribute, summary, detail string) *hcl.Diagnostic {
	return &hcl.Diagnostic{Severity: hcl.DiagError, Summary: summary, Detail: detail, Subject: a.Expr.Range().Ptr()}
}

func stringAttr(a *hcl.Attribute) (string, hcl.Diagnostics) {
	v, diags := a.Expr.Value(nil)
	if diags.HasErrors() {
		return "", diags
	}
	s, err := convert.Convert(v, cty.String)
	if err != nil || s.IsNull() || !s.IsKnown() {
		return "", hcl.Diagnostics{attrError(a, "Invalid value", fmt.Sprintf("%s must be a string.", a.Name))}
	}
	return s.AsString(), nil
}

func hostsAttr(a *hcl.Attribute) ([]string, hcl.Diagnostics) {
	v, diags := a.Expr.Value(nil)
	if diags.HasErrors() {
		return nil, diags
	}
	l, err := convert.Convert(v, cty.List(cty.String))
	if err != nil || l.IsNull() || !l.IsWhollyKnown() {
		return nil, hcl.Diagnostics{attrError(a, "Invalid value", "hosts must be a list of host names or globs.")}
	}
	var hosts []string
	for _, h := range l.AsValueSlice() {
		if h.IsNull() || h.AsString() == "" {
			return nil, hcl.Diagnostics{attrError(a, "Invalid value", "hosts must not hold empty names.")}
		}
		hosts = append(hosts, h.AsString())
	}
	return hosts, nil
}

func checkGlob(a *hcl.Attribute, pattern string) (*regexp.Regexp, hcl.Diagnostics) {
	re, err := compileGlob(pattern)
	if err != nil {
		return nil, hcl.Diagnostics{attrError(a, "Invalid glob", fmt.Sprintf("%q in %s: %v.", pattern, a.Name, err))}
	}
	if pattern == "" && a.Name == "assertion" {
		return nil, hcl.Diagnostics{attrError(a, "Empty assertion", "Name a step ID, a check name or a glob.")}
	}
	return re, nil
}
