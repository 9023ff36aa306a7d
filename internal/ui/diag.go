package ui

import (
	"bytes"
	"io"
	"regexp"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	hcljson "github.com/hashicorp/hcl/v2/json"
)

// diagFiles turns sources into the *hcl.File values the diagnostic writer
// needs, parsing each file the first time a diagnostic points into it.
type diagFiles struct {
	sources map[string][]byte
	files   map[string]*hcl.File
}

func newDiagFiles(sources map[string][]byte) *diagFiles {
	return &diagFiles{sources: sources, files: map[string]*hcl.File{}}
}

// forDiags returns the files the diagnostics refer to, parsed and cached.
func (d *diagFiles) forDiags(diags hcl.Diagnostics) map[string]*hcl.File {
	for _, dg := range diags {
		for _, r := range []*hcl.Range{dg.Subject, dg.Context} {
			if r == nil {
				continue
			}
			if _, ok := d.files[r.Filename]; ok {
				continue
			}
			if src, ok := d.sources[r.Filename]; ok {
				d.files[r.Filename] = parseFile(r.Filename, src)
			}
		}
	}
	return d.files
}

// parseFile parses src for its navigation (the "in step ..." context of a
// snippet); a file that does not parse still shows its lines.
func parseFile(name string, src []byte) *hcl.File {
	var f *hcl.File
	if strings.HasSuffix(name, ".json") {
		f, _ = hcljson.Parse(src, name)
	} else {
		f, _ = hclsyntax.ParseConfig(src, name, hcl.InitialPos)
	}
	if f == nil || f.Bytes == nil {
		f = &hcl.File{Bytes: src}
	}
	return f
}

// WriteDiagnostics writes diags as text with source snippets from sources
// and, for failed conditions, the values of the expressions they
// referenced. width wraps details (0: no wrapping); color adds escape
// sequences.
func WriteDiagnostics(w io.Writer, sources map[string][]byte, diags hcl.Diagnostics, width int, color bool) error {
	files := newDiagFiles(sources).forDiags(diags)
	return hcl.NewDiagnosticTextWriter(w, files, uint(max(width, 0)), color).WriteDiagnostics(cleanDiags(diags))
}

// Diagnostics writes validation or load diagnostics through the console,
// with its colour setting, redaction and sources.
func (c *Console) Diagnostics(diags hcl.Diagnostics) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.emitBlock(c.renderDiags(diags))
	return c.err
}

// renderDiags renders diagnostics, redacted. Colour codes inside a snippet
// could split a secret so that redaction misses it; when the plain text
// holds a secret, the diagnostics are rendered again without colour.
func (c *Console) renderDiags(diags hcl.Diagnostics) string {
	files := c.diags.forDiags(diags)
	render := func(color bool) string {
		var b bytes.Buffer
		if err := hcl.NewDiagnosticTextWriter(&b, files, uint(max(c.width, 0)), color).WriteDiagnostics(cleanDiags(diags)); err != nil {
			b.WriteString("(cannot render diagnostics: " + err.Error() + ")\n")
		}
		return b.String()
	}
	out := render(c.color)
	if c.color && c.red.Contains(stripANSI(out)) {
		out = render(false)
	}
	return c.red.String(out)
}

// cleanDiags copies diags with control characters removed from summaries
// and details, which may quote remote output.
func cleanDiags(diags hcl.Diagnostics) hcl.Diagnostics {
	out := make(hcl.Diagnostics, 0, len(diags))
	for _, d := range diags {
		if d == nil {
			continue
		}
		cp := *d
		cp.Summary = clean(cp.Summary)
		ls := strings.Split(cp.Detail, "\n")
		for i := range ls {
			ls[i] = clean(ls[i])
		}
		cp.Detail = strings.Join(ls, "\n")
		cp.Subject, cp.Context = orderedRange(cp.Subject), orderedRange(cp.Context)
		out = append(out, &cp)
	}
	return out
}

// orderedRange returns r, or a copy ending where it starts when its end
// lies before its start (an expression cut short by a syntax error), which
// the snippet writer would print twice.
func orderedRange(r *hcl.Range) *hcl.Range {
	if r == nil || r.End.Byte >= r.Start.Byte && r.End.Line >= r.Start.Line {
		return r
	}
	fixed := *r
	fixed.End = fixed.Start
	return &fixed
}

var ansi = regexp.MustCompile(`\x1b\[[0-9;]*[A-Za-z]`)

func stripANSI(s string) string { return ansi.ReplaceAllString(s, "") }
