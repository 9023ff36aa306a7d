package mpstat

import "github.com/provadev/prova/parse"

// Parsers returns the `prova parse` entries of this package. The mpstat
// entry prints the Result with its Summary.
func Parsers() []parse.Parser {
	return []parse.Parser{
		{Name: "mpstat", Command: "mpstat [-P ALL] [-o JSON] interval [count]", Parse: func(b []byte) (any, error) {
			r, err := Parse(b)
			if err != nil {
				return nil, err
			}
			return Report{Result: r, Summary: r.Summary()}, nil
		}},
	}
}
