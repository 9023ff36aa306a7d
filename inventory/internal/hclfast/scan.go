package hclfast

import "github.com/hashicorp/hcl/v2"

// kind is a token kind of the subset. Anything the subset does not have is
// kBad, and a kBad token makes Parse decline the file.
type kind uint8

const (
	kBad kind = iota
	kEOF
	kNewline // "\n", "\r\n", or a "#" or "//" comment that ends with one
	kIdent
	kNumber
	kString // a whole quoted string without interpolation, quotes included
	kOBrace
	kCBrace
	kOBrack
	kCBrack
	kComma
	kEqual
	kColon
)

// token is one token as hclsyntax's scanner cuts it, with the positions
// its emitToken computes. It holds no pointer, so that copying it costs
// no write barrier: the file name and the text are the scanner's.
type token struct {
	kind       kind
	escaped    bool // kString: the content has escapes
	start, end hcl.Pos
	from, to   int // kIdent, kNumber: the text; kString: the content between the quotes
}

// scanner reads tokens from src, tracking the position after the last
// token read as hclsyntax does: lines count "\n" and "\r\n", columns
// count bytes, which for the ASCII-only input the subset admits are
// grapheme clusters.
type scanner struct {
	src      []byte
	str      string // src as one string: names and values are slices of it
	filename string
	pos      hcl.Pos // position of the next byte to scan
}

// next scans the token at s.pos. With newlines false, newlines and
// comments are skipped, as the hclsyntax peeker does inside brackets and
// parentheses; with newlines true a line comment that ends with a newline
// is a newline whose range is the whole comment, as the peeker makes it.
// A comment without its newline (at the end of the file) is skipped in
// both modes. next returns the token, whose end is the position after it;
// it does not move s.pos.
func (s *scanner) next(newlines bool) token {
	src := s.src
	pos := s.pos
	for {
		i := pos.Byte
		// spaces and tabs: one column each
		for i < len(src) && (src[i] == ' ' || src[i] == '\t') {
			i++
		}
		pos.Column += i - pos.Byte
		pos.Byte = i
		if i == len(src) {
			return token{kind: kEOF, start: pos, end: pos}
		}
		c := src[i]
		switch {
		case c == '\n' || (c == '\r' && i+1 < len(src) && src[i+1] == '\n'):
			n := 1
			if c == '\r' {
				n = 2
			}
			end := hcl.Pos{Line: pos.Line + 1, Column: 1, Byte: i + n}
			if !newlines {
				pos = end
				continue
			}
			return token{kind: kNewline, start: pos, end: end}
		case c == '#' || (c == '/' && i+1 < len(src) && src[i+1] == '/'):
			end, nl, ok := lineComment(src, pos)
			if !ok {
				return token{kind: kBad}
			}
			if nl && newlines {
				return token{kind: kNewline, start: pos, end: end}
			}
			pos = end
			continue
		case c == '/' && i+1 < len(src) && src[i+1] == '*':
			end, ok := blockComment(src, pos)
			if !ok {
				return token{kind: kBad}
			}
			pos = end
			continue
		case c == '"':
			return s.quoted(pos)
		case isIdentStart(c):
			j := i + 1
			for j < len(src) && isIdentCont(src[j]) {
				j++
			}
			end := hcl.Pos{Line: pos.Line, Column: pos.Column + j - i, Byte: j}
			return token{kind: kIdent, start: pos, end: end, from: i, to: j}
		case c >= '0' && c <= '9':
			j := numberEnd(src, i)
			end := hcl.Pos{Line: pos.Line, Column: pos.Column + j - i, Byte: j}
			return token{kind: kNumber, start: pos, end: end, from: i, to: j}
		}
		var k kind
		switch c {
		case '{':
			k = kOBrace
		case '}':
			k = kCBrace
		case '[':
			k = kOBrack
		case ']':
			k = kCBrack
		case ',':
			k = kComma
		case '=':
			// "==" and "=>" are other tokens
			if i+1 < len(src) && (src[i+1] == '=' || src[i+1] == '>') {
				return token{kind: kBad}
			}
			k = kEqual
		case ':':
			if i+1 < len(src) && src[i+1] == ':' { // "::"
				return token{kind: kBad}
			}
			k = kColon
		default:
			return token{kind: kBad}
		}
		return token{kind: k, start: pos, end: hcl.Pos{Line: pos.Line, Column: pos.Column + 1, Byte: i + 1}}
	}
}

// lineComment scans a "#" or "//" comment starting at pos up to and
// including its newline ("\n" or "\r\n"), or to the end of the input.
// nl tells whether it ended with a newline; ok is false for a byte the
// subset does not take.
func lineComment(src []byte, pos hcl.Pos) (end hcl.Pos, nl, ok bool) {
	i := pos.Byte
	col := pos.Column
	for i < len(src) {
		c := src[i]
		switch {
		case c == '\n':
			return hcl.Pos{Line: pos.Line + 1, Column: 1, Byte: i + 1}, true, true
		case c == '\r' && i+1 < len(src) && src[i+1] == '\n':
			return hcl.Pos{Line: pos.Line + 1, Column: 1, Byte: i + 2}, true, true
		case c >= 0x80:
			return pos, false, false
		}
		i++
		col++
	}
	return hcl.Pos{Line: pos.Line, Column: col, Byte: i}, false, true
}

// blockComment scans a "/* ... */" comment starting at pos, ending at the
// first "*/"; ok is false when it does not end or holds a byte the subset
// does not take.
func blockComment(src []byte, pos hcl.Pos) (hcl.Pos, bool) {
	i := pos.Byte + 2
	line, col := pos.Line, pos.Column+2
	for i < len(src) {
		c := src[i]
		switch {
		case c == '*' && i+1 < len(src) && src[i+1] == '/':
			return hcl.Pos{Line: line, Column: col + 2, Byte: i + 2}, true
		case c == '\n':
			line, col = line+1, 1
			i++
			continue
		case c == '\r' && i+1 < len(src) && src[i+1] == '\n':
			line, col = line+1, 1
			i += 2
			continue
		case c >= 0x80:
			return pos, false
		}
		i++
		col++
	}
	return pos, false
}

// quoted scans a quoted string at pos. It takes printable ASCII and tabs,
// and the escapes \n \r \t \" \\; anything else ("${", "%{", "$", "%",
// other escapes, a newline, a control or non-ASCII byte, a missing
// closing quote) is kBad. "$" and "%" are refused even where they are
// literal, since hclsyntax cuts the literal into several tokens there.
func (s *scanner) quoted(pos hcl.Pos) token {
	src := s.src
	i := pos.Byte + 1
	escaped := false
	for {
		if i == len(src) {
			return token{kind: kBad}
		}
		c := src[i]
		if c == '"' {
			break
		}
		switch {
		case c == '\\':
			if i+1 == len(src) {
				return token{kind: kBad}
			}
			switch src[i+1] {
			case 'n', 'r', 't', '"', '\\':
			default:
				return token{kind: kBad}
			}
			escaped = true
			i += 2
			continue
		case c == '$' || c == '%' || c >= 0x7f || (c < 0x20 && c != '\t'):
			return token{kind: kBad}
		}
		i++
	}
	// all bytes up to the closing quote are one column each
	end := hcl.Pos{Line: pos.Line, Column: pos.Column + i + 1 - pos.Byte, Byte: i + 1}
	return token{kind: kString, escaped: escaped, start: pos, end: end, from: pos.Byte + 1, to: i}
}

// literal is the range of a string token's content and its value. For ""
// hclsyntax gives the literal the zero-width range at the end of the
// token after the opening quote, which is the closing quote.
func (s *scanner) literal(t *token) (hcl.Range, string) {
	if t.from == t.to {
		return hcl.Range{Filename: s.filename, Start: t.end, End: t.end}, ""
	}
	start := hcl.Pos{Line: t.start.Line, Column: t.start.Column + 1, Byte: t.from}
	end := hcl.Pos{Line: t.end.Line, Column: t.end.Column - 1, Byte: t.to}
	val := s.str[t.from:t.to]
	if t.escaped {
		val = unescape(val)
	}
	return hcl.Range{Filename: s.filename, Start: start, End: end}, val
}

// rng is a token's range.
func (s *scanner) rng(t *token) hcl.Range {
	return hcl.Range{Filename: s.filename, Start: t.start, End: t.end}
}

// unescape decodes the escapes quoted admitted.
func unescape(s string) string {
	out := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' {
			out = append(out, c)
			continue
		}
		i++
		switch s[i] {
		case 'n':
			out = append(out, '\n')
		case 'r':
			out = append(out, '\r')
		case 't':
			out = append(out, '\t')
		default: // '"' or '\\'
			out = append(out, s[i])
		}
	}
	return string(out)
}

// numberEnd is the end of the number literal starting at the digit at i,
// cut as hclsyntax's scanner cuts it (the longest run of digits, dots and
// exponents that does not end with a dot). Whether it is a valid number is
// for cty.ParseNumberVal to say, as in hclsyntax.
func numberEnd(src []byte, i int) int {
	j := i + 1
	last := j // end of the longest lexeme not ending with '.'
	for j < len(src) {
		c := src[j]
		switch {
		case c >= '0' && c <= '9':
			j++
			last = j
			continue
		case c == '.':
			j++
			continue
		case c == 'e' || c == 'E':
			k := j + 1
			if k < len(src) && (src[k] == '+' || src[k] == '-') {
				k++
			}
			if k < len(src) && src[k] >= '0' && src[k] <= '9' {
				j = k + 1
				last = j
				continue
			}
		}
		break
	}
	return last
}

// isIdentStart and isIdentCont are hclsyntax's identifier classes
// (ID_Start or "_", then ID_Continue or "-") for ASCII.
func isIdentStart(c byte) bool {
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
}

func isIdentCont(c byte) bool {
	return isIdentStart(c) || c == '-' || (c >= '0' && c <= '9')
}
