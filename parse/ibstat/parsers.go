package ibstat

import "github.com/provadev/prova/parse"

// Parsers returns the `prova parse` entries of this package.
func Parsers() []parse.Parser {
	return []parse.Parser{
		{Name: "ibstat", Command: "ibstat", Parse: func(b []byte) (any, error) { return Parse(b) }},
		{Name: "ibstatus", Command: "ibstatus", Parse: func(b []byte) (any, error) { return ParseStatus(b) }},
	}
}
