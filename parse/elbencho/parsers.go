package elbencho

import "github.com/provadev/prova/parse"

// Parsers returns the elbencho parsers for `prova parse`.
func Parsers() []parse.Parser {
	return []parse.Parser{
		{Name: "elbencho", Command: "elbencho", Parse: parse.Typed(ParseConsole)},
		{Name: "elbencho-csv", Command: "elbencho --csvfile", Parse: parse.Typed(ParseCSV)},
		{Name: "elbencho-resfile", Command: "elbencho --resfile", Parse: parse.Typed(ParseResfile)},
		{Name: "elbencho-livecsv", Command: "elbencho --livecsv", Parse: func(b []byte) (any, error) {
			rows, err := ParseLiveCSV(b)
			if err != nil {
				return nil, err
			}
			return rows, nil
		}},
		{Name: "elbencho-version", Command: "elbencho --version", Parse: parse.Typed(ParseVersion)},
	}
}
