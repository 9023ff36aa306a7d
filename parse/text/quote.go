package text

import "unicode/utf8"

// QuoteMax is the most characters of an offending line an error message
// quotes.
const QuoteMax = 200

// Clip returns s cut to at most QuoteMax characters (runes), with "…"
// appended when it was cut.
func Clip(s string) string {
	if utf8.RuneCountInString(s) <= QuoteMax {
		return s
	}
	n := 0
	for i := range s {
		if n == QuoteMax {
			return s[:i] + "…"
		}
		n++
	}
	return s
}
