package ui

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/provadev/prova/internal/redact"
	"github.com/provadev/prova/internal/testkit/golden"
)

func TestWriteDiagnostics(t *testing.T) {
	for _, color := range []bool{false, true} {
		name := "diag.plain.golden"
		if color {
			name = "diag.color.golden"
		}
		var b bytes.Buffer
		diags := append(assertionDiags(t), &hcl.Diagnostic{
			Severity: hcl.DiagWarning,
			Summary:  "Missing source",
			Detail:   "The file is not among the sources.",
			Subject:  &hcl.Range{Filename: "elsewhere.hcl", Start: hcl.Pos{Line: 3, Column: 1}, End: hcl.Pos{Line: 3, Column: 4, Byte: 3}},
		})
		if err := WriteDiagnostics(&b, sources(), diags, 40, color); err != nil {
			t.Fatal(err)
		}
		out := b.String()
		for _, want := range []string{
			"on runbooks/gpfs-verbs-rdma.hcl line 6, in step \"assert\" \"verbs_up\":",
			"step.bench.lat.lat_avg_us as 3.1",
			"step.verbsconn.check.connections as 1",
			"on elsewhere.hcl line 3:\n  (source code not available)",
		} {
			if !strings.Contains(stripANSI(out), want) {
				t.Errorf("color=%v: missing %q in\n%s", color, want, out)
			}
		}
		if has := strings.Contains(out, "\x1b["); has != color {
			t.Errorf("color=%v but escape sequences present=%v", color, has)
		}
		golden.Check(t, filepath.Join("testdata", name), b.Bytes())
	}
}

func TestConsoleDiagnosticsRedactsSplitSecret(t *testing.T) {
	// The secret starts before the highlighted expression and ends inside
	// it, so colour codes cut it in two; the console must notice.
	src := `step "shell" "x" {
  command = "login pw=abc" + var.rest
}
`
	const split = `= "login pw`
	f, diags := hclsyntax.ParseConfig([]byte(src), "x.hcl", hcl.InitialPos)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	expr := f.Body.(*hclsyntax.Body).Blocks[0].Body.Attributes["command"].Expr
	d := hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Bad command", Subject: expr.Range().Ptr()}}

	var b bytes.Buffer
	c := NewConsole(&b, Options{Color: "always", Redact: redact.New(split), Sources: map[string][]byte{"x.hcl": []byte(src)}})
	if err := c.Diagnostics(d); err != nil {
		t.Fatal(err)
	}
	if out := stripANSI(b.String()); strings.Contains(out, split) || !strings.Contains(out, redact.Placeholder) {
		t.Errorf("secret not redacted:\n%s", out)
	}

	// Without a secret in the snippet, the colours stay.
	b.Reset()
	c = NewConsole(&b, Options{Color: "always", Redact: redact.New("unrelated"), Sources: map[string][]byte{"x.hcl": []byte(src)}})
	if err := c.Diagnostics(d); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "\x1b[1;4m") {
		t.Errorf("highlight lost:\n%q", b.String())
	}
}

func TestDiagnosticsSourceThatDoesNotParse(t *testing.T) {
	src := "step \"a\" {\n  x = = 1\n"
	d := hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Syntax", Subject: &hcl.Range{
		Filename: "bad.hcl", Start: hcl.Pos{Line: 2, Column: 7, Byte: 17}, End: hcl.Pos{Line: 2, Column: 8, Byte: 18}}}}
	var b bytes.Buffer
	if err := WriteDiagnostics(&b, map[string][]byte{"bad.hcl": []byte(src)}, d, 0, false); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "   2:   x = = 1") {
		t.Errorf("snippet of an unparsable file missing:\n%s", b.String())
	}
}

// A diagnostic whose range ends before it starts (an expression cut short
// by a syntax error at the end of the file) shows its source line once.
func TestDiagnosticInvertedRangeShownOnce(t *testing.T) {
	src := []byte("runbook {  description =A(")
	d := &hcl.Diagnostic{
		Severity: hcl.DiagError, Summary: "Function calls not allowed", Detail: "Functions may not be called here.",
		Subject: &hcl.Range{Filename: "cut.hcl", Start: hcl.Pos{Line: 1, Column: 25, Byte: 24}, End: hcl.Pos{}},
	}
	var b strings.Builder
	if err := WriteDiagnostics(&b, map[string][]byte{"cut.hcl": src}, hcl.Diagnostics{d}, 0, false); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(b.String(), "runbook {"); n != 1 {
		t.Errorf("source shown %d times, want once:\n%s", n, b.String())
	}
	if d.Subject.End.Byte != 0 {
		t.Error("WriteDiagnostics changed the caller's diagnostic")
	}
}
