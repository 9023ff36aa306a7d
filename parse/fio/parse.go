package fio

import (
	"github.com/provadev/prova/parse"
	"github.com/provadev/prova/parse/text"
)

// Parse reads fio's stdout in any of the formats json, json+, normal and
// normal,json (where the JSON is used). A failed job is an error naming it.
func Parse(data []byte) (*Result, error) {
	if err := parse.Complete("fio", data); err != nil {
		return nil, err
	}
	raw, line, ok, err := findJSON(data)
	lines := text.Lines(data)
	if ok {
		r, err := parseJSON(raw, line)
		if err != nil {
			return nil, err
		}
		for _, l := range lines {
			if jobHeadRe.MatchString(l) {
				r.Format = "normal," + r.Format
				break
			}
		}
		return r, nil
	}
	if err != nil {
		return nil, err
	}
	return parseText(lines)
}

// Parsers returns the fio parser for `prova parse`.
func Parsers() []parse.Parser {
	return []parse.Parser{{Name: "fio", Command: "fio", Parse: func(b []byte) (any, error) {
		r, err := Parse(b)
		if err != nil {
			return nil, err
		}
		return r, nil
	}}}
}
