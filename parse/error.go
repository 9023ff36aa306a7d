package parse

import (
	"fmt"

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
