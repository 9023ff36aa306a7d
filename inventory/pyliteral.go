package inventory

import (
	"errors"
	"math"
	"math/big"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/zclconf/go-cty/cty"
)

// ansibleValue is an INI value as Ansible's ini plugin makes it
// (_parse_value): what Python's ast.literal_eval reads from s, or s itself
// as a string when it is not a Python literal.
func ansibleValue(s string) cty.Value {
	if v, ok := pyLiteral(s); ok {
		return v
	}
	return cty.StringVal(s)
}

// pyLiteral reads s as Python's ast.literal_eval does: a string (with its
// prefixes r, u, b, its escapes, triple quotes, and adjacent strings
// joined), an integer (decimal, 0x, 0o, 0b, with _ between digits), a
// float, True, False, None, a sign before a number, and lists, tuples
// (also without parentheses: "1, 2") and dicts of those; white space and a
// trailing # comment are allowed. Integers stay exact and floats are
// float64, as in Python (see pyFloatVal). ok is false when s is not such a
// literal, and also for the literals Ansible cannot print as JSON (sets,
// complex numbers, a float too large for float64).
func pyLiteral(s string) (cty.Value, bool) {
	p := &pyParser{s: strings.TrimLeft(s, " \t")}
	v, err := p.top()
	if err != nil {
		return cty.NilVal, false
	}
	p.space()
	if p.i != len(p.s) {
		return cty.NilVal, false
	}
	return v, true
}

type pyParser struct {
	s     string
	i     int
	depth int
}

// maxPyDepth bounds nesting (CPython's parser stops at 200).
const maxPyDepth = 100

var errPy = errors.New("not a Python literal")

// space skips blanks, line continuations and a comment.
func (p *pyParser) space() {
	for p.i < len(p.s) {
		switch c := p.s[p.i]; {
		case c == ' ' || c == '\t' || c == '\f' || c == '\n' || c == '\r':
			p.i++
		case c == '\\' && p.i+1 < len(p.s) && p.s[p.i+1] == '\n':
			p.i += 2
		case c == '#':
			for p.i < len(p.s) && p.s[p.i] != '\n' {
				p.i++
			}
		default:
			return
		}
	}
}

func (p *pyParser) peek() byte {
	p.space()
	if p.i < len(p.s) {
		return p.s[p.i]
	}
	return 0
}

// top reads an expression that may be a tuple without parentheses.
func (p *pyParser) top() (cty.Value, error) {
	first, err := p.value()
	if err != nil {
		return cty.NilVal, err
	}
	if p.peek() != ',' {
		return first, nil
	}
	elems := []cty.Value{first}
	for p.peek() == ',' {
		p.i++
		if c := p.peek(); c == 0 || c == ')' {
			break
		}
		v, err := p.value()
		if err != nil {
			return cty.NilVal, err
		}
		elems = append(elems, v)
	}
	return cty.TupleVal(elems), nil
}

func (p *pyParser) value() (cty.Value, error) {
	if p.depth++; p.depth > maxPyDepth {
		return cty.NilVal, errPy
	}
	defer func() { p.depth-- }()
	switch c := p.peek(); {
	case c == '(':
		p.i++
		if p.peek() == ')' {
			p.i++
			return cty.EmptyTupleVal, nil
		}
		first, err := p.value()
		if err != nil {
			return cty.NilVal, err
		}
		if p.peek() == ')' { // (x) is x
			p.i++
			return first, nil
		}
		elems := []cty.Value{first}
		rest, err := p.sequence(')')
		if err != nil {
			return cty.NilVal, err
		}
		return cty.TupleVal(append(elems, rest...)), nil
	case c == '[':
		p.i++
		if p.peek() == ']' {
			p.i++
			return cty.EmptyTupleVal, nil
		}
		first, err := p.value()
		if err != nil {
			return cty.NilVal, err
		}
		elems := []cty.Value{first}
		rest, err := p.sequence(']')
		if err != nil {
			return cty.NilVal, err
		}
		return cty.TupleVal(append(elems, rest...)), nil
	case c == '{':
		return p.dict()
	case c == '+' || c == '-':
		// literal_eval takes a sign before a number only
		p.i++
		n, err := p.number(c == '-')
		if err != nil {
			return cty.NilVal, err
		}
		return n, nil
	case c >= '0' && c <= '9' || c == '.':
		return p.number(false)
	case c == '\'' || c == '"':
		return p.strings()
	case isPyNameStart(c):
		j := p.i
		for j < len(p.s) && isPyNameChar(p.s[j]) {
			j++
		}
		if j < len(p.s) && (p.s[j] == '\'' || p.s[j] == '"') {
			return p.strings() // a prefixed string
		}
		word := p.s[p.i:j]
		p.i = j
		switch word {
		case "True":
			return cty.True, nil
		case "False":
			return cty.False, nil
		case "None":
			return cty.NullVal(cty.DynamicPseudoType), nil
		}
	}
	return cty.NilVal, errPy
}

// sequence reads ", x" repeatedly up to the closing bracket, after the
// first element; a trailing comma is allowed.
func (p *pyParser) sequence(end byte) ([]cty.Value, error) {
	var elems []cty.Value
	for {
		switch p.peek() {
		case end:
			p.i++
			return elems, nil
		case ',':
			p.i++
			if p.peek() == end {
				p.i++
				return elems, nil
			}
			v, err := p.value()
			if err != nil {
				return nil, err
			}
			elems = append(elems, v)
		default:
			return nil, errPy
		}
	}
}

func (p *pyParser) dict() (cty.Value, error) {
	p.i++ // {
	attrs := map[string]cty.Value{}
	names := map[string]string{} // Python key identity -> the key first written
	for n := 0; ; n++ {
		if p.peek() == '}' {
			p.i++
			break
		}
		if n > 0 {
			if p.peek() != ',' {
				return cty.NilVal, errPy
			}
			p.i++
			if p.peek() == '}' {
				p.i++
				break
			}
		}
		k, err := p.value()
		if err != nil {
			return cty.NilVal, err
		}
		if p.peek() != ':' {
			return cty.NilVal, errPy // a set, which Ansible cannot print as JSON
		}
		p.i++
		v, err := p.value()
		if err != nil {
			return cty.NilVal, err
		}
		key, ok := pyKey(k)
		if !ok {
			return cty.NilVal, errPy
		}
		// 1, 1.0 and True are one key in Python: the first spelling stays,
		// the last value wins
		id := "s" + key
		if k.Type() == cty.Bool || k.Type() == cty.Number {
			id = "n" + pyNumberID(k)
		}
		if first, ok := names[id]; ok {
			key = first
		} else {
			names[id] = key
		}
		attrs[key] = v
	}
	if len(attrs) == 0 {
		return cty.EmptyObjectVal, nil
	}
	return cty.ObjectVal(attrs), nil
}

// number reads an integer or a float literal at p.i.
func (p *pyParser) number(neg bool) (cty.Value, error) {
	p.space()
	j := p.i
	for j < len(p.s) && (isPyNameChar(p.s[j]) || p.s[j] == '.' ||
		((p.s[j] == '+' || p.s[j] == '-') && j > p.i && (p.s[j-1] == 'e' || p.s[j-1] == 'E') && !isPyRadix(p.s[p.i:j]))) {
		j++
	}
	tok := p.s[p.i:j]
	p.i = j
	if tok == "" || !(tok[0] >= '0' && tok[0] <= '9' || tok[0] == '.' && len(tok) > 1) {
		return cty.NilVal, errPy
	}
	if isPyRadix(tok) {
		base := map[byte]int{'x': 16, 'X': 16, 'o': 8, 'O': 8, 'b': 2, 'B': 2}[tok[1]]
		return pyInt(strings.TrimPrefix(tok[2:], "_"), base, neg) // 0x_1F is 31
	}
	if pyDecimalInt(tok) {
		return pyInt(tok, 10, neg)
	}
	if !pyFloatLiteral(tok) {
		return cty.NilVal, errPy
	}
	f, err := strconv.ParseFloat(strings.ReplaceAll(tok, "_", ""), 64)
	if err != nil || math.IsInf(f, 0) {
		return cty.NilVal, errPy
	}
	if neg {
		f = -f
	}
	return pyFloatVal(f), nil
}

func isPyRadix(tok string) bool {
	return len(tok) > 2 && tok[0] == '0' && strings.IndexByte("xXoObB", tok[1]) >= 0
}

// pyInt reads digits (with single _ between them) in base.
func pyInt(digits string, base int, neg bool) (cty.Value, error) {
	if !pyDigits(digits, base) {
		return cty.NilVal, errPy
	}
	n, ok := new(big.Int).SetString(strings.ReplaceAll(digits, "_", ""), base)
	if !ok || n.BitLen() > 4096 {
		return cty.NilVal, errPy
	}
	if neg {
		n.Neg(n)
	}
	return cty.NumberVal(new(big.Float).SetInt(n)), nil
}

// pyDigits reports whether s is digits of base with single underscores
// between them.
func pyDigits(s string, base int) bool {
	if s == "" || s[0] == '_' || s[len(s)-1] == '_' || strings.Contains(s, "__") {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		var d int
		switch {
		case c == '_':
			continue
		case c >= '0' && c <= '9':
			d = int(c - '0')
		case c >= 'a' && c <= 'f':
			d = int(c-'a') + 10
		case c >= 'A' && c <= 'F':
			d = int(c-'A') + 10
		default:
			return false
		}
		if d >= base {
			return false
		}
	}
	return true
}

// pyDecimalInt: a non-zero digit and digits, or zeros ("007" is a syntax
// error in Python 3, "00" is 0).
func pyDecimalInt(s string) bool {
	if !pyDigits(s, 10) {
		return false
	}
	if s[0] == '0' {
		return strings.Trim(s, "0_") == ""
	}
	return true
}

// pyFloatLiteral: [digits] "." digits, digits ".", and either of those
// or digits with an exponent.
func pyFloatLiteral(s string) bool {
	mant, exp := s, ""
	if k := strings.IndexAny(s, "eE"); k >= 0 {
		mant, exp = s[:k], s[k+1:]
		if exp != "" && (exp[0] == '+' || exp[0] == '-') {
			exp = exp[1:]
		}
		if !pyDigits(exp, 10) {
			return false
		}
	}
	whole, frac, dot := strings.Cut(mant, ".")
	if !dot {
		return exp != "" && pyDigits(whole, 10)
	}
	if whole == "" && frac == "" {
		return false
	}
	return (whole == "" || pyDigits(whole, 10)) && (frac == "" || pyDigits(frac, 10))
}

// strings reads one or more adjacent string literals and joins them.
func (p *pyParser) strings() (cty.Value, error) {
	var b strings.Builder
	kind := 0 // 1 str, 2 bytes
	for {
		c := p.peek()
		if c != '\'' && c != '"' && !isPyNameStart(c) {
			break
		}
		j := p.i
		for j < len(p.s) && isPyNameChar(p.s[j]) {
			j++
		}
		if j >= len(p.s) || (p.s[j] != '\'' && p.s[j] != '"') {
			if kind == 0 {
				return cty.NilVal, errPy
			}
			break
		}
		raw, isBytes := false, false
		switch strings.ToLower(p.s[p.i:j]) {
		case "", "u":
		case "r":
			raw = true
		case "b":
			isBytes = true
		case "br", "rb":
			raw, isBytes = true, true
		default: // f-strings and names are not literals
			return cty.NilVal, errPy
		}
		k := 1
		if isBytes {
			k = 2
		}
		if kind != 0 && kind != k {
			return cty.NilVal, errPy // str and bytes do not concatenate
		}
		kind = k
		p.i = j
		if err := p.stringBody(&b, raw, isBytes); err != nil {
			return cty.NilVal, err
		}
	}
	s := b.String()
	if !utf8.ValidString(s) {
		return cty.NilVal, errPy
	}
	return cty.StringVal(s), nil
}

// stringBody reads one quoted string at p.i into b.
func (p *pyParser) stringBody(b *strings.Builder, raw, isBytes bool) error {
	q := p.s[p.i]
	quote := string(q)
	if strings.HasPrefix(p.s[p.i:], strings.Repeat(quote, 3)) {
		quote = strings.Repeat(quote, 3)
	}
	p.i += len(quote)
	for p.i < len(p.s) {
		if strings.HasPrefix(p.s[p.i:], quote) {
			p.i += len(quote)
			return nil
		}
		c := p.s[p.i]
		switch {
		case c == '\n' && len(quote) == 1:
			return errPy
		case isBytes && c >= 0x80:
			return errPy // bytes literals are ASCII
		case c == '\\' && p.i+1 < len(p.s):
			if raw {
				b.WriteByte(c)
				b.WriteByte(p.s[p.i+1])
				p.i += 2
				continue
			}
			if err := p.escape(b, isBytes); err != nil {
				return err
			}
			continue
		}
		b.WriteByte(c)
		p.i++
	}
	return errPy
}

// escape reads one backslash escape at p.i.
func (p *pyParser) escape(b *strings.Builder, isBytes bool) error {
	e := p.s[p.i+1]
	p.i += 2
	simple := map[byte]byte{'\\': '\\', '\'': '\'', '"': '"', 'a': 7, 'b': 8, 'f': 12, 'n': '\n', 'r': '\r', 't': '\t', 'v': 11}
	if r, ok := simple[e]; ok {
		b.WriteByte(r)
		return nil
	}
	hex := func(n int) (uint64, error) {
		if p.i+n > len(p.s) {
			return 0, errPy
		}
		v, err := strconv.ParseUint(p.s[p.i:p.i+n], 16, 32)
		if err != nil || strings.ContainsAny(p.s[p.i:p.i+n], "+-") {
			return 0, errPy
		}
		p.i += n
		return v, nil
	}
	switch {
	case e == '\n':
		return nil
	case e >= '0' && e <= '7':
		v := uint64(e - '0')
		for n := 1; n < 3 && p.i < len(p.s) && p.s[p.i] >= '0' && p.s[p.i] <= '7'; n++ {
			v = v*8 + uint64(p.s[p.i]-'0')
			p.i++
		}
		return pyWriteCode(b, v, isBytes)
	case e == 'x':
		v, err := hex(2)
		if err != nil {
			return err
		}
		return pyWriteCode(b, v, isBytes)
	case (e == 'u' || e == 'U') && !isBytes:
		n := 4
		if e == 'U' {
			n = 8
		}
		v, err := hex(n)
		if err != nil || v > utf8.MaxRune || (v >= 0xD800 && v <= 0xDFFF) {
			return errPy
		}
		b.WriteRune(rune(v))
		return nil
	case e == 'N' && !isBytes:
		return errPy // named characters: not read
	}
	b.WriteByte('\\') // an unknown escape keeps its backslash
	b.WriteByte(e)
	return nil
}

// pyWriteCode writes an octal or \x escape: a code point in a str, a byte
// in bytes.
func pyWriteCode(b *strings.Builder, v uint64, isBytes bool) error {
	if isBytes {
		if v > 0xFF {
			return errPy
		}
		b.WriteByte(byte(v))
		return nil
	}
	b.WriteRune(rune(v))
	return nil
}

// pyNumberID is the numeric value of a number or bool key.
func pyNumberID(k cty.Value) string {
	if k.Type() == cty.Bool {
		if k.True() {
			return "1"
		}
		return "0"
	}
	return k.AsBigFloat().Text('g', -1)
}

func isPyNameStart(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

func isPyNameChar(c byte) bool { return isPyNameStart(c) || c >= '0' && c <= '9' }

// pyKey is a dict key as the JSON object key Ansible prints for it
// (json.dumps: True is "true", None "null", 1 "1", 1.5 "1.5"); ok is false
// for keys JSON cannot have (tuples).
func pyKey(k cty.Value) (string, bool) {
	switch {
	case k.IsNull():
		return "null", true
	case k.Type() == cty.String:
		return k.AsString(), true
	case k.Type() == cty.Bool:
		return strconv.FormatBool(k.True()), true
	case k.Type() == cty.Number:
		return numberText(k.AsBigFloat()), true
	}
	return "", false
}
