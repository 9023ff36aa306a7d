package eval

import (
	"fmt"
	"os"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/ext/typeexpr"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"

	"github.com/provadev/prova/engine/config"
)

// EnvPrefix is the prefix of environment variables that set runbook
// variables: PROVA_VAR_pagepool=32G.
const EnvPrefix = "PROVA_VAR_"

// Inputs are the values given for variables from outside the runbook, in
// increasing precedence: Env, Files, Flags.
type Inputs struct {
	Env   []string // "KEY=value" as in os.Environ
	Files []string // --var-file paths: HCL files of name = value
	Flags []string // --var name=value, in order (later wins)
	// Partial makes every variable not given an unknown value (validate
	// checks a runbook for any value it may get, without its inputs).
	Partial bool
}

// Variables are resolved variable values.
type Variables struct {
	Values map[string]cty.Value
	// Sensitive holds every string inside the values of sensitive
	// variables, for redaction.
	Sensitive []string
	// Sources holds the source bytes of var files, for diagnostics.
	Sources map[string][]byte
}

// ResolveVariables computes every declared variable's value.
func ResolveVariables(rb *config.Runbook, in Inputs) (*Variables, hcl.Diagnostics) {
	var diags hcl.Diagnostics
	decl := map[string]*config.Variable{}
	for _, v := range rb.Variables {
		decl[v.Name] = v
	}
	out := &Variables{Values: map[string]cty.Value{}, Sources: map[string][]byte{}}
	given := map[string]cty.Value{}
	// origin says where each given value came from, for the example in an
	// error; invalid holds the variables given a value that could not be
	// read, which are reported as such and not also as missing.
	origin := map[string]givenAs{}
	invalid := map[string]bool{}

	for _, kv := range in.Env {
		k, val, ok := strings.Cut(kv, "=")
		if !ok || !strings.HasPrefix(k, EnvPrefix) {
			continue
		}
		name := strings.TrimPrefix(k, EnvPrefix)
		v, ok := decl[name]
		if !ok {
			continue // like Terraform: undeclared env values are ignored
		}
		cv, d := parseRaw(v, val, "environment variable "+k)
		if d.HasErrors() {
			diags = append(diags, unreadable(v, val, "the environment variable "+k, fromEnv))
			invalid[name] = true
			continue
		}
		given[name], origin[name] = cv, givenAs{val, fromEnv}
	}
	for _, path := range in.Files {
		src, err := os.ReadFile(path)
		if err != nil {
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Cannot read variables file", Detail: err.Error()})
			continue
		}
		out.Sources[path] = src
		f, d := hclsyntax.ParseConfig(src, path, hcl.InitialPos)
		diags = append(diags, d...)
		if d.HasErrors() {
			continue
		}
		attrs, d := f.Body.JustAttributes()
		diags = append(diags, d...)
		names := make([]string, 0, len(attrs))
		for n := range attrs {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, n := range names {
			a := attrs[n]
			if _, ok := decl[n]; !ok {
				diags = append(diags, undeclared(n, a.NameRange.Ptr(), rb))
				continue
			}
			val, d := a.Expr.Value(nil)
			diags = append(diags, d...)
			if d.HasErrors() {
				invalid[n] = true
				continue
			}
			raw := ""
			if val.IsKnown() && !val.IsNull() && val.Type() == cty.String {
				raw = val.AsString()
			}
			given[n], origin[n] = val, givenAs{raw, fromFile}
		}
	}
	for _, f := range in.Flags {
		name, val, ok := strings.Cut(f, "=")
		if !ok {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Invalid --var option",
				Detail:   fmt.Sprintf("The given --var option %q is not correctly specified. It must be name=value.", f),
			})
			continue
		}
		v, ok := decl[name]
		if !ok {
			diags = append(diags, undeclared(name, nil, rb))
			continue
		}
		cv, d := parseRaw(v, val, "--var "+name)
		if d.HasErrors() {
			diags = append(diags, unreadable(v, val, "--var "+name, fromFlag))
			invalid[name] = true
			continue
		}
		given[name], origin[name] = cv, givenAs{val, fromFlag}
	}

	for _, v := range rb.Variables {
		val, ok := given[v.Name]
		switch {
		case ok:
			if v.Defaults != nil {
				val = v.Defaults.Apply(val)
			}
			cv, err := convert.Convert(val, v.Type)
			if err != nil {
				diags = append(diags, &hcl.Diagnostic{
					Severity: hcl.DiagError,
					Summary:  "Invalid value for variable",
					Detail: fmt.Sprintf("The value given for var.%s is not compatible with its type constraint %s: %s.\n\n%s",
						v.Name, typeString(v.Type), err, howToWrite(v.Name, v.Type, origin[v.Name].raw, origin[v.Name].from)),
					Subject: v.DeclRange.Ptr(),
				})
				continue
			}
			val = cv
		case invalid[v.Name]:
			continue // reported where it was read
		case in.Partial:
			// validate: a value not given is unknown, default or not, so
			// the runbook is checked for every value it may get.
			ty := v.Type
			if ty == cty.DynamicPseudoType && v.Default != cty.NilVal {
				ty = v.Default.Type()
			}
			val = cty.UnknownVal(ty)
		case v.Default != cty.NilVal:
			val = v.Default
		default:
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "No value for required variable",
				Detail: fmt.Sprintf("The variable %q has no default; set it with --var %s=..., a --var-file, or the environment variable %s%s.",
					v.Name, v.Name, EnvPrefix, v.Name),
				Subject: v.DeclRange.Ptr(),
			})
			continue
		}
		out.Values[v.Name] = val
		if v.Sensitive {
			out.Sensitive = append(out.Sensitive, stringsIn(val)...)
		}
	}
	if diags.HasErrors() {
		return out, diags
	}
	diags = append(diags, validateVariables(rb, out)...)
	return out, diags
}

// givenAs is the text a value was given as and where.
type givenAs struct {
	raw  string
	from source
}

// unreadable is the error for a value given as text that is not valid HCL
// for the variable's type: it names the type and shows how to write one.
func unreadable(v *config.Variable, raw, where string, from source) *hcl.Diagnostic {
	return &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  "Invalid value for variable",
		Detail: fmt.Sprintf("The value %q given with %s is not a %s: values of this type are written in HCL syntax.\n\n%s",
			raw, where, typeexpr.TypeString(v.Type), howToWrite(v.Name, v.Type, raw, from)),
		Subject: v.DeclRange.Ptr(),
	}
}

// parseRaw reads a value given as text: taken literally for primitive
// types, parsed as an HCL expression for collections (as Terraform does).
func parseRaw(v *config.Variable, raw, what string) (cty.Value, hcl.Diagnostics) {
	if v.Type.IsPrimitiveType() {
		return cty.StringVal(raw), nil
	}
	expr, diags := hclsyntax.ParseExpression([]byte(raw), what, hcl.InitialPos)
	if diags.HasErrors() {
		if v.Type == cty.DynamicPseudoType {
			return cty.StringVal(raw), nil
		}
		return cty.NilVal, diags
	}
	val, diags := expr.Value(nil)
	if diags.HasErrors() && v.Type == cty.DynamicPseudoType {
		return cty.StringVal(raw), nil
	}
	return val, diags
}

func validateVariables(rb *config.Runbook, vars *Variables) hcl.Diagnostics {
	var diags hcl.Diagnostics
	ctx := &hcl.EvalContext{
		Variables: map[string]cty.Value{"var": cty.ObjectVal(vars.Values)},
		Functions: Functions(),
	}
	for _, v := range rb.Variables {
		for _, val := range v.Validations {
			res, d := val.Condition.Value(ctx)
			diags = append(diags, d...)
			if d.HasErrors() || !res.IsKnown() {
				continue
			}
			if res.IsNull() || res.Type() != cty.Bool {
				diags = append(diags, &hcl.Diagnostic{
					Severity: hcl.DiagError,
					Summary:  "Invalid validation condition",
					Detail:   "The condition must be true or false.",
					Subject:  val.Condition.Range().Ptr(),
				})
				continue
			}
			if res.True() {
				continue
			}
			msg := "The value of var." + v.Name + " is not valid."
			if m, d := val.ErrorMessage.Value(ctx); !d.HasErrors() && m.IsKnown() && !m.IsNull() {
				if s, err := convert.Convert(m, cty.String); err == nil {
					msg = s.AsString()
				}
			}
			diags = append(diags, &hcl.Diagnostic{
				Severity:    hcl.DiagError,
				Summary:     "Invalid value for variable",
				Detail:      msg + "\n\nThis was checked by the validation rule at " + val.DeclRange.String() + ".",
				Subject:     val.Condition.Range().Ptr(),
				Expression:  val.Condition,
				EvalContext: ctx,
			})
		}
	}
	return diags
}

func undeclared(name string, subject *hcl.Range, rb *config.Runbook) *hcl.Diagnostic {
	names := make([]string, 0, len(rb.Variables))
	for _, v := range rb.Variables {
		names = append(names, v.Name)
	}
	detail := fmt.Sprintf("A value was given for var.%s, but the runbook declares no such variable.", name)
	if s := DidYouMean(name, names); s != "" {
		detail += fmt.Sprintf(" Did you mean %q?", s)
	}
	return &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Value for undeclared variable", Detail: detail, Subject: subject}
}

func typeString(t cty.Type) string {
	if t == cty.DynamicPseudoType {
		return "any"
	}
	return t.FriendlyName()
}

// stringsIn returns every known string leaf in v (and the decimal form of
// numbers), for redaction.
func stringsIn(v cty.Value) []string {
	if v.IsNull() || !v.IsKnown() {
		return nil
	}
	ty := v.Type()
	switch {
	case ty == cty.String:
		return []string{v.AsString()}
	case ty == cty.Number:
		return []string{v.AsBigFloat().Text('f', -1)}
	case ty.IsListType() || ty.IsSetType() || ty.IsTupleType() || ty.IsMapType() || ty.IsObjectType():
		var out []string
		for it := v.ElementIterator(); it.Next(); {
			_, e := it.Element()
			out = append(out, stringsIn(e)...)
		}
		return out
	}
	return nil
}
