package inventory

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/zclconf/go-cty/cty"
)

// iniToken is one whitespace-separated word of an INI line, quotes kept.
type iniToken struct {
	text       string
	start, end int // byte offsets in the line
}

// splitINI splits a line into words the way a shell would (quotes group,
// but are kept in the text) and stops at a "#" that starts a word.
func splitINI(line string) ([]iniToken, error) {
	var toks []iniToken
	i := 0
	for i < len(line) {
		for i < len(line) && (line[i] == ' ' || line[i] == '\t') {
			i++
		}
		if i >= len(line) || line[i] == '#' {
			break
		}
		start := i
		var quote byte
		for i < len(line) {
			ch := line[i]
			switch {
			case quote != 0 && ch == quote:
				quote = 0
			case quote != 0:
			case ch == '"' || ch == '\'':
				quote = ch
			case ch == ' ' || ch == '\t':
				goto done
			}
			i++
		}
	done:
		if quote != 0 {
			return toks, fmt.Errorf("unterminated %c quote in %q", quote, line[start:])
		}
		toks = append(toks, iniToken{text: line[start:i], start: start, end: i})
	}
	return toks, nil
}

// cutComment removes an inline comment: a "#" preceded by white space and
// outside quotes.
func cutComment(s string) string {
	var quote byte
	for i := 0; i < len(s); i++ {
		ch := s[i]
		switch {
		case quote != 0 && ch == quote:
			quote = 0
		case quote != 0:
		case ch == '"' || ch == '\'':
			quote = ch
		case ch == '#' && (i == 0 || s[i-1] == ' ' || s[i-1] == '\t'):
			return strings.TrimSpace(s[:i])
		}
	}
	return strings.TrimSpace(s)
}

var (
	iniInt   = regexp.MustCompile(`^[-+]?(0|[1-9][0-9]*)$`)
	iniFloat = regexp.MustCompile(`^[-+]?(0|[1-9][0-9]*)?\.[0-9]+([eE][-+]?[0-9]{1,3})?$|^[-+]?(0|[1-9][0-9]*)(\.[0-9]*)?[eE][-+]?[0-9]{1,3}$|^[-+]?(0|[1-9][0-9]*)\.$`)
)

// iniValue converts an INI value the way Ansible's literal parsing does for
// the common cases: a decimal number becomes a number (but "007" stays a
// string), True and False become booleans, a Python list, tuple or dict
// (also inside quotes) becomes a tuple or object (see pyLiteral), a value
// in matching quotes becomes the string inside them, and anything else is
// a string.
func iniValue(raw string) cty.Value {
	if n := len(raw); n >= 2 && (raw[0] == '"' || raw[0] == '\'') && raw[n-1] == raw[0] {
		if v, ok := pyLiteral(raw[1 : n-1]); ok {
			return v
		}
		return cty.StringVal(raw[1 : n-1])
	}
	switch raw {
	case "True":
		return cty.True
	case "False":
		return cty.False
	}
	if len(raw) <= 64 && (iniInt.MatchString(raw) || iniFloat.MatchString(raw)) {
		if v, err := cty.ParseNumberVal(strings.TrimPrefix(raw, "+")); err == nil {
			return v
		}
	}
	// a Python list, tuple or dict, as ast.literal_eval reads it
	if v, ok := pyLiteral(raw); ok {
		return v
	}
	return cty.StringVal(raw)
}
