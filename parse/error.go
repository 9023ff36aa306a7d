package parse

import (
	"fmt"
	"strings"

	"github.com/provadev/prova/parse/text"
)

// Error is a tool output that a parser could not read. It names the tool, the
// 1-based line number and the text of that line, so that a user can see what
// was unexpected. The module that ran the tool adds the host. The message
// quotes at most text.QuoteMax characters of the line.
type Error struct {
	Tool   string // e.g. "ibstat", "mmlsconfig -Y"
	Line   int    // 1-based; 0 when the problem is not tied to a line
	Text   string // the offending line, as printed
	Reason string
}

func (e *Error) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s output line %d: %s: %q", e.Tool, e.Line, e.Reason, text.Clip(e.Text))
	}
	return fmt.Sprintf("%s output: %s", e.Tool, e.Reason)
}

// Complete returns an *Error when data does not end with a line end: the
// tools prova reads always finish their last line, so such output was cut
// (a dropped connection, a capture limit, a paste). Parsers call it first,
// so that a cut value ("State: Acti") is never read as a whole one. JSON
// (output starting with '{' or '[') is left to the JSON decoder, which
// finds a cut document itself.
func Complete(tool string, data []byte) error {
	if !text.EndsMidLine(data) {
		return nil
	}
	if t := strings.TrimLeft(string(data), " \t\r\n"); strings.HasPrefix(t, "{") || strings.HasPrefix(t, "[") {
		return nil
	}
	lines := text.Lines(data)
	return &Error{Tool: tool, Line: len(lines), Text: lines[len(lines)-1], Reason: "the output ends in the middle of this line (cut short)"}
}
