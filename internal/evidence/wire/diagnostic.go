package wire

import (
	"github.com/hashicorp/hcl/v2"
	"github.com/provadev/prova/internal/redact"
)

// Diagnostic is the JSON form of an hcl.Diagnostic.
type Diagnostic struct {
	Severity string `json:"severity"` // "error" or "warning"
	Summary  string `json:"summary"`
	Detail   string `json:"detail,omitempty"`
	Range    *Range `json:"range,omitempty"`
}

// Range is a span of a source file.
type Range struct {
	Filename string `json:"filename"`
	Start    Pos    `json:"start"`
	End      Pos    `json:"end"`
}

// Pos is a position in a source file; Line and Column count from 1, Byte
// from 0.
type Pos struct {
	Line   int `json:"line"`
	Column int `json:"column"`
	Byte   int `json:"byte"`
}

// DiagnosticsJSON converts diagnostics to their JSON form, redacted with r.
func DiagnosticsJSON(diags hcl.Diagnostics, r *redact.Redactor) []Diagnostic {
	out := make([]Diagnostic, 0, len(diags))
	for _, d := range diags {
		if d == nil {
			continue
		}
		sev := "error"
		if d.Severity == hcl.DiagWarning {
			sev = "warning"
		}
		j := Diagnostic{Severity: sev, Summary: r.String(d.Summary), Detail: r.String(d.Detail)}
		if s := d.Subject; s != nil {
			j.Range = &Range{
				Filename: r.String(s.Filename),
				Start:    Pos{s.Start.Line, s.Start.Column, s.Start.Byte},
				End:      Pos{s.End.Line, s.End.Column, s.End.Byte},
			}
		}
		out = append(out, j)
	}
	return out
}
