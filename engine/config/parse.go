package config

import (
	"time"

	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclparse"
	"github.com/zclconf/go-cty/cty"
)

// Load parses a runbook file, or every *.hcl file of a directory merged.
func Load(path string) (*Runbook, hcl.Diagnostics) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Cannot read runbook",
			Detail:   err.Error(),
		}}
	}
	srcs := map[string][]byte{}
	base := filepath.Dir(path)
	if st.IsDir() {
		base = path
		names, _ := filepath.Glob(filepath.Join(path, "*.hcl"))
		if len(names) == 0 {
			return nil, hcl.Diagnostics{{
				Severity: hcl.DiagError,
				Summary:  "No runbook files",
				Detail:   fmt.Sprintf("The directory %s holds no *.hcl files.", path),
			}}
		}
		for _, n := range names {
			b, err := os.ReadFile(n)
			if err != nil {
				return nil, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Cannot read runbook", Detail: err.Error()}}
			}
			srcs[n] = b
		}
	} else {
		b, err := os.ReadFile(path)
		if err != nil {
			return nil, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Cannot read runbook", Detail: err.Error()}}
		}
		srcs[path] = b
	}
	rb, diags := parse(srcs, true)
	if rb != nil {
		rb.Path = path
		rb.BaseDir = base
	}
	return rb, diags
}

// Parse parses runbook sources given by file name. Files are merged in
// name order; steps keep their order within each file. include blocks are
// recorded but not followed (Load follows them).
func Parse(srcs map[string][]byte) (*Runbook, hcl.Diagnostics) {
	return parse(srcs, false)
}

func parse(srcs map[string][]byte, readIncludes bool) (*Runbook, hcl.Diagnostics) {
	names := make([]string, 0, len(srcs))
	for n := range srcs {
		names = append(names, n)
	}
	sort.Strings(names)

	rb := &Runbook{Sources: map[string][]byte{}, Files: map[string]*hcl.File{}, readIncludes: readIncludes}
	for k, v := range srcs {
		rb.Sources[k] = v
	}
	h := sha256.New()
	p := hclparse.NewParser()
	var diags hcl.Diagnostics
	for _, n := range names {
		fmt.Fprintf(h, "%s\x00%d\x00", filepath.Base(n), len(srcs[n]))
		h.Write(srcs[n])
		f, d := p.ParseHCL(srcs[n], n)
		diags = append(diags, d...)
		if f == nil {
			continue
		}
		rb.Files[n] = f
		diags = append(diags, decodeFile(rb, f)...)
	}
	rb.Hash = hex.EncodeToString(h.Sum(nil))
	if len(rb.includes) > 0 && rb.readIncludes {
		diags = append(diags, resolveIncludes(rb, rb.includes, map[string]bool{})...)
		rb.Hash = hashSources(rb.Sources)
	}
	diags = append(diags, checkDuplicates(rb)...)
	return rb, fixRanges(diags, rb.Sources)
}

// fixRanges keeps every diagnostic's ranges inside its file: an expression
// cut short by a syntax error (`description = A(` at the end of the file)
// has an end before its start, which a snippet would print twice.
func fixRanges(diags hcl.Diagnostics, srcs map[string][]byte) hcl.Diagnostics {
	for _, d := range diags {
		d.Subject = fixRange(d.Subject, srcs)
		d.Context = fixRange(d.Context, srcs)
	}
	return diags
}

func fixRange(r *hcl.Range, srcs map[string][]byte) *hcl.Range {
	if r == nil {
		return nil
	}
	src, ok := srcs[r.Filename]
	if !ok {
		return r
	}
	if r.Start.Byte >= 0 && r.Start.Byte <= r.End.Byte && r.End.Byte <= len(src) && r.Start.Line <= r.End.Line {
		return r
	}
	fixed := *r
	if fixed.Start.Byte < 0 || fixed.Start.Byte > len(src) {
		fixed.Start = endOf(src)
	}
	if fixed.End.Byte < fixed.Start.Byte || fixed.End.Byte > len(src) || fixed.End.Line < fixed.Start.Line {
		fixed.End = fixed.Start
	}
	return &fixed
}

// endOf is the position just after the last byte of src.
func endOf(src []byte) hcl.Pos {
	p := hcl.InitialPos
	for _, c := range string(src) {
		if c == '\n' {
			p.Line++
			p.Column = 1
		} else {
			p.Column++
		}
	}
	p.Byte = len(src)
	return p
}

// parseOne parses one included file without resolving its own includes.
func parseOne(name string, src []byte) (*Runbook, hcl.Diagnostics) {
	rb := &Runbook{Sources: map[string][]byte{name: src}, Files: map[string]*hcl.File{}}
	f, diags := hclparse.NewParser().ParseHCL(src, name)
	if f == nil {
		return rb, diags
	}
	rb.Files[name] = f
	return rb, append(diags, decodeFile(rb, f)...)
}

func hashSources(srcs map[string][]byte) string {
	names := make([]string, 0, len(srcs))
	for n := range srcs {
		names = append(names, n)
	}
	sort.Strings(names)
	h := sha256.New()
	for _, n := range names {
		fmt.Fprintf(h, "%s\x00%d\x00", filepath.Base(n), len(srcs[n]))
		h.Write(srcs[n])
	}
	return hex.EncodeToString(h.Sum(nil))
}

var rootSchema = &hcl.BodySchema{
	Blocks: []hcl.BlockHeaderSchema{
		{Type: "runbook"},
		{Type: "variable", LabelNames: []string{"name"}},
		{Type: "locals"},
		{Type: "step", LabelNames: []string{"module", "name"}},
		{Type: "include", LabelNames: []string{"name"}},
	},
}

func decodeFile(rb *Runbook, f *hcl.File) hcl.Diagnostics {
	content, diags := f.Body.Content(rootSchema)
	stepsInFile := 0
	for _, b := range content.Blocks {
		switch b.Type {
		case "runbook":
			diags = append(diags, decodeRunbookBlock(rb, b)...)
		case "variable":
			v, d := decodeVariable(b)
			diags = append(diags, d...)
			if v != nil {
				rb.Variables = append(rb.Variables, v)
			}
		case "locals":
			attrs, d := b.Body.JustAttributes()
			diags = append(diags, d...)
			ls := make([]*Local, 0, len(attrs))
			for _, a := range attrs {
				ls = append(ls, &Local{Name: a.Name, Expr: a.Expr, DeclRange: a.NameRange})
			}
			sort.Slice(ls, func(i, j int) bool { return ls[i].DeclRange.Start.Byte < ls[j].DeclRange.Start.Byte })
			rb.Locals = append(rb.Locals, ls...)
		case "step":
			s, d := decodeStep(b)
			diags = append(diags, d...)
			if s != nil {
				rb.Steps = append(rb.Steps, s)
				stepsInFile++
			}
		case "include":
			inc, d := decodeInclude(b, stepsInFile, b.DefRange.Filename)
			diags = append(diags, d...)
			if inc != nil {
				rb.includes = append(rb.includes, inc)
			}
		}
	}
	return diags
}

func decodeRunbookBlock(rb *Runbook, b *hcl.Block) hcl.Diagnostics {
	content, diags := b.Body.Content(&hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: "description"}, {Name: "strategy"}, {Name: "baseline"}, {Name: "keep_runs"}, {Name: "step_timeout"}, {Name: "lock_host"}, {Name: "lock_path"}}})
	if a, ok := content.Attributes["lock_host"]; ok {
		rb.LockHost = a.Expr
	}
	if a, ok := content.Attributes["lock_path"]; ok {
		rb.LockPath = a.Expr
	}
	lit := func(name string) (string, bool) {
		a, ok := content.Attributes[name]
		if !ok {
			return "", false
		}
		v, d := a.Expr.Value(nil)
		diags = append(diags, d...)
		if d.HasErrors() {
			return "", false
		}
		if v.Type().FriendlyName() != "string" || !v.IsKnown() || v.IsNull() {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Invalid " + name,
				Detail:   "The runbook " + name + " must be a literal string.",
				Subject:  a.Expr.Range().Ptr(),
			})
			return "", false
		}
		return v.AsString(), true
	}
	if d, ok := lit("description"); ok {
		rb.Description = d
	}
	if b, ok := lit("baseline"); ok {
		rb.Baseline = b
	}
	if a, ok := content.Attributes["keep_runs"]; ok {
		v, d := a.Expr.Value(nil)
		diags = append(diags, d...)
		n, ok := 0, false
		if !d.HasErrors() && v.IsKnown() && !v.IsNull() && v.Type() == cty.Number {
			if bf := v.AsBigFloat(); bf.IsInt() {
				i, _ := bf.Int64()
				n, ok = int(i), i >= 0 && i < 1<<31
			}
		}
		if !ok && !d.HasErrors() {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Invalid keep_runs",
				Detail:   "keep_runs must be a literal whole number: how many run records apply keeps (0 keeps all).",
				Subject:  a.Expr.Range().Ptr(),
			})
		}
		rb.KeepRuns = n
	}
	if st, ok := lit("step_timeout"); ok {
		d, err := time.ParseDuration(st)
		if err != nil || d <= 0 {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Invalid step_timeout",
				Detail:   `step_timeout must be a positive duration like "10m" or "1h30m": it bounds every step that sets no timeout of its own.`,
				Subject:  content.Attributes["step_timeout"].Expr.Range().Ptr(),
			})
		} else {
			rb.StepTimeout = d
		}
	}
	if st, ok := lit("strategy"); ok {
		if st != "linear" && st != "free" {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Invalid strategy",
				Detail:   `strategy must be "linear" (every host finishes a step before the next) or "free" (hosts go at their own pace).`,
				Subject:  content.Attributes["strategy"].Expr.Range().Ptr(),
			})
		} else {
			rb.Strategy = st
		}
	}
	return diags
}

func checkDuplicates(rb *Runbook) hcl.Diagnostics {
	var diags hcl.Diagnostics
	seen := map[string]hcl.Range{}
	dup := func(kind, name string, r hcl.Range) {
		key := kind + "\x00" + name
		if prev, ok := seen[key]; ok {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  fmt.Sprintf("Duplicate %s %q", kind, name),
				Detail:   fmt.Sprintf("A %s named %q was already declared at %s. Names must be unique in a runbook.", kind, name, prev),
				Subject:  r.Ptr(),
			})
			return
		}
		seen[key] = r
	}
	for _, v := range rb.Variables {
		dup("variable", v.Name, v.DeclRange)
	}
	for _, l := range rb.Locals {
		dup("local value", l.Name, l.DeclRange)
	}
	for _, s := range rb.Steps {
		dup("step", s.Name, s.NameRange)
	}
	return diags
}

func validName(s string) bool {
	if s == "" {
		return false
	}
	for i, c := range s {
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && (c >= '0' && c <= '9' || c == '-')) {
			return false
		}
	}
	return !strings.HasPrefix(s, "-")
}
