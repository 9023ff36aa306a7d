package eval

import (
	"math/big"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2/ext/typeexpr"
	"github.com/zclconf/go-cty/cty"
)

// source says where a variable's value came from, to show how to write it
// there.
type source int

const (
	fromFlag source = iota
	fromEnv
	fromFile
)

// howToWrite returns how a value of the variable's type is written in the
// place the bad one came from, built from what was given where that helps:
//
//	verbs_ports is list(string): --var 'verbs_ports=["mlx5_0/1"]'
func howToWrite(name string, ty cty.Type, raw string, from source) string {
	ex := exampleValue(ty, raw)
	var how string
	switch from {
	case fromEnv:
		how = EnvPrefix + name + "=" + shellQuote(ex)
	case fromFile:
		how = name + " = " + ex + " (in the --var-file)"
	default:
		how = "--var " + shellQuote(name+"="+ex)
	}
	return name + " is " + typeexpr.TypeString(ty) + ": " + how
}

// exampleValue is an HCL literal of type ty, using raw (the text given)
// for its leaves when it fits them.
func exampleValue(ty cty.Type, raw string) string {
	raw = strings.TrimSpace(raw)
	switch {
	case ty == cty.String || ty == cty.DynamicPseudoType:
		if raw == "" {
			raw = "value"
		}
		return quoteHCL(raw)
	case ty == cty.Number:
		if _, ok := new(big.Float).SetString(raw); ok {
			return raw
		}
		return "8"
	case ty == cty.Bool:
		if raw == "false" {
			return raw
		}
		return "true"
	case ty.IsListType() || ty.IsSetType():
		// "a,b" was most likely meant as two elements; text that already
		// looks like another structure is not reused.
		if strings.HasPrefix(raw, "{") {
			raw = ""
		}
		parts := strings.Split(strings.Trim(raw, "[]"), ",")
		var elems []string
		for _, p := range parts {
			if p = strings.Trim(strings.TrimSpace(p), `"`); p != "" {
				elems = append(elems, exampleValue(ty.ElementType(), p))
			}
		}
		if len(elems) == 0 {
			elems = []string{exampleValue(ty.ElementType(), "")}
		}
		return "[" + strings.Join(elems, ", ") + "]"
	case ty.IsMapType():
		return "{ key = " + exampleValue(ty.ElementType(), "") + " }"
	case ty.IsTupleType():
		var elems []string
		for _, et := range ty.TupleElementTypes() {
			elems = append(elems, exampleValue(et, ""))
		}
		return "[" + strings.Join(elems, ", ") + "]"
	case ty.IsObjectType():
		attrs := ty.AttributeTypes()
		names := make([]string, 0, len(attrs))
		for n := range attrs {
			names = append(names, n)
		}
		sort.Strings(names)
		var parts []string
		for _, n := range names {
			parts = append(parts, n+" = "+exampleValue(attrs[n], ""))
		}
		return "{ " + strings.Join(parts, ", ") + " }"
	}
	return quoteHCL(raw)
}

// quoteHCL writes s as an HCL string literal.
func quoteHCL(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`, "${", "$${", "%{", "%%{")
	return `"` + r.Replace(s) + `"`
}

// shellQuote quotes s for a POSIX shell command line.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
