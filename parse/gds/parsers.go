package gds

import "github.com/provadev/prova/parse"

// Parsers returns the `prova parse` entries of this package.
func Parsers() []parse.Parser {
	return []parse.Parser{
		{Name: "gdscheck", Command: "/usr/local/cuda/gds/tools/gdscheck -p", Parse: wrap(ParseGdscheck)},
		{Name: "gdsio", Command: "/usr/local/cuda/gds/tools/gdsio", Parse: wrap(ParseGdsio)},
		{Name: "cufile-json", Command: "cat /etc/cufile.json", Parse: wrap(ParseCufile)},
	}
}

// wrap adapts a typed parse function so that a failed parse gives a nil
// interface rather than a typed nil pointer.
func wrap[T any](f func([]byte) (*T, error)) func([]byte) (any, error) {
	return func(b []byte) (any, error) {
		v, err := f(b)
		if err != nil {
			return nil, err
		}
		return v, nil
	}
}
