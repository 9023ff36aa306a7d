package inventory

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// The literal fast paths must give what evaluating the expression gives,
// and step aside for everything they do not cover.
func TestLiteralStringsAsEvaluated(t *testing.T) {
	for _, src := range []string{
		`a = "gpfs01"`, `a = ""`, `a = "caf\u00e9 e\u0301"`, `a = "tab\tnew\nline"`, `a = "$${not} %%{not}"`,
		`a = ["g01", "g02"]`, `a = ["x"]`, `a = []`, `a = ["a", "${"b"}"]`, `a = "${"x"}y"`, `a = ["a", 1]`,
		`a = 7`, `a = true`, `a = null`, `a = ["a", null]`, `a = "a${1}"`, `a = <<EOT
heredoc
EOT
`,
	} {
		f, diags := hclsyntax.ParseConfig([]byte(src), "t.hcl", hcl.InitialPos)
		if diags.HasErrors() {
			t.Fatalf("%s: %s", src, diags)
		}
		attrs, _ := f.Body.JustAttributes()
		attr := attrs["a"]
		if s, ok := literalString(attr.Expr); ok {
			v, _, _ := evalAttr(refOf(attr))
			if v.AsString() != s {
				t.Errorf("%s: literal %q, evaluated %q", src, s, v.AsString())
			}
		}
		if got, gotRanges, ok := literalStringList(attr.Expr); ok {
			// what the evaluating path gives, with the fast path out of the way
			want, wantRanges, wok, _ := attrStringListEvaluated(refOf(attr), false)
			if !wok || !cmp.Equal(got, want) || !cmp.Equal(gotRanges, wantRanges) {
				t.Errorf("%s: literal %q %v, evaluated %q %v (ok %t)", src, got, gotRanges, want, wantRanges, wok)
			}
		}
	}
	lits := 0
	for _, src := range []string{`a = "gpfs01"`, `a = ["g01", "g02"]`} {
		f, _ := hclsyntax.ParseConfig([]byte(src), "t.hcl", hcl.InitialPos)
		attrs, _ := f.Body.JustAttributes()
		if _, ok := literalString(attrs["a"].Expr); ok {
			lits++
		}
		if _, _, ok := literalStringList(attrs["a"].Expr); ok {
			lits++
		}
	}
	if lits != 2 {
		t.Errorf("the fast paths took %d of the 2 plain cases: they are not taken at all", lits)
	}
}
