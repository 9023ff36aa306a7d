package elbencho

import "github.com/provadev/prova/parse"

// Parsers returns the elbencho parsers for `prova parse`.
func Parsers() []parse.Parser {
	return []parse.Parser{
		{Name: "elbencho", Command: "elbencho", Parse: wrap(ParseConsole)},
		{Name: "elbencho-csv", Command: "elbencho --csvfile", Parse: wrap(ParseCSV)},
		{Name: "elbencho-resfile", Command: "elbencho --resfile", Parse: wrap(ParseResfile)},
		{Name: "elbencho-livecsv", Command: "elbencho --livecsv", Parse: func(b []byte) (any, error) {
			rows, err := ParseLiveCSV(b)
			if err != nil {
				return nil, err
			}
			return rows, nil
		}},
		{Name: "elbencho-version", Command: "elbencho --version", Parse: wrap(ParseVersion)},
	}
}

func wrap[T any](f func([]byte) (*T, error)) func([]byte) (any, error) {
	return func(b []byte) (any, error) {
		v, err := f(b)
		if err != nil {
			return nil, err
		}
		return v, nil
	}
}
