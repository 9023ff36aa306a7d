// Package text holds the line and number helpers every tool-output parser
// shares: splitting output into lines (LF or CRLF), telling whether output
// ends in the middle of a line, quoting an offending line for an error
// message (at most QuoteMax characters), and reading optional integers.
//
// It does not parse any tool's format and imports nothing of the project.
package text
