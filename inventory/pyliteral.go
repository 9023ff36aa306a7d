package inventory

import (
	"errors"
	"strconv"
	"strings"

	"github.com/zclconf/go-cty/cty"
)

// pyLiteral reads a Python literal list, tuple or dict the way Ansible's
// INI plugin does (ast.literal_eval): devices="['/dev/sda', '/dev/sdb']"
// is a list of two strings. Elements may be strings ('...' or "..."),
// numbers, True, False, None, and nested lists, tuples and dicts. ok is
// false when s is not such a literal; it then stays a string.
func pyLiteral(s string) (cty.Value, bool) {
	s = strings.TrimSpace(s)
	if s == "" || (s[0] != '[' && s[0] != '(' && s[0] != '{') {
		return cty.NilVal, false
	}
	p := &pyParser{s: s}
	v, err := p.value(0)
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
	s string
	i int
}

const maxPyDepth = 32

var errPy = errors.New("not a Python literal")

func (p *pyParser) space() {
	for p.i < len(p.s) && (p.s[p.i] == ' ' || p.s[p.i] == '\t') {
		p.i++
	}
}

func (p *pyParser) value(depth int) (cty.Value, error) {
	if depth > maxPyDepth {
		return cty.NilVal, errPy
	}
	p.space()
	if p.i >= len(p.s) {
		return cty.NilVal, errPy
	}
	switch c := p.s[p.i]; {
	case c == '[' || c == '(':
		end := byte(']')
		if c == '(' {
			end = ')'
		}
		p.i++
		var elems []cty.Value
		for {
			p.space()
			if p.i < len(p.s) && p.s[p.i] == end {
				p.i++
				break
			}
			v, err := p.value(depth + 1)
			if err != nil {
				return cty.NilVal, err
			}
			elems = append(elems, v)
			p.space()
			if p.i < len(p.s) && p.s[p.i] == ',' {
				p.i++
				continue
			}
			if p.i < len(p.s) && p.s[p.i] == end {
				p.i++
				break
			}
			return cty.NilVal, errPy
		}
		if len(elems) == 0 {
			return cty.EmptyTupleVal, nil
		}
		return cty.TupleVal(elems), nil
	case c == '{':
		p.i++
		attrs := map[string]cty.Value{}
		for {
			p.space()
			if p.i < len(p.s) && p.s[p.i] == '}' {
				p.i++
				break
			}
			k, err := p.value(depth + 1)
			if err != nil {
				return cty.NilVal, err
			}
			p.space()
			if p.i >= len(p.s) || p.s[p.i] != ':' {
				return cty.NilVal, errPy
			}
			p.i++
			v, err := p.value(depth + 1)
			if err != nil {
				return cty.NilVal, err
			}
			attrs[pyKey(k)] = v
			p.space()
			if p.i < len(p.s) && p.s[p.i] == ',' {
				p.i++
				continue
			}
			if p.i < len(p.s) && p.s[p.i] == '}' {
				p.i++
				break
			}
			return cty.NilVal, errPy
		}
		if len(attrs) == 0 {
			return cty.EmptyObjectVal, nil
		}
		return cty.ObjectVal(attrs), nil
	case c == '\'' || c == '"':
		return p.str(c)
	default:
		j := p.i
		for j < len(p.s) && strings.IndexByte(",:]}) \t", p.s[j]) < 0 {
			j++
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
		if len(word) <= 64 && (iniInt.MatchString(word) || iniFloat.MatchString(word)) {
			if v, err := cty.ParseNumberVal(strings.TrimPrefix(word, "+")); err == nil {
				return v, nil
			}
		}
		return cty.NilVal, errPy
	}
}

// str reads a quoted Python string with its common escapes.
func (p *pyParser) str(q byte) (cty.Value, error) {
	p.i++
	var b strings.Builder
	for p.i < len(p.s) {
		c := p.s[p.i]
		switch {
		case c == q:
			p.i++
			return cty.StringVal(b.String()), nil
		case c == '\\' && p.i+1 < len(p.s):
			p.i++
			switch e := p.s[p.i]; e {
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			case '\\', '\'', '"':
				b.WriteByte(e)
			default:
				b.WriteByte('\\')
				b.WriteByte(e)
			}
		default:
			b.WriteByte(c)
		}
		p.i++
	}
	return cty.NilVal, errPy
}

// pyKey is a dict key as the string Ansible's JSON shows it.
func pyKey(k cty.Value) string {
	switch {
	case k.IsNull():
		return "None"
	case k.Type() == cty.String:
		return k.AsString()
	case k.Type() == cty.Bool:
		if k.True() {
			return "True"
		}
		return "False"
	case k.Type() == cty.Number:
		return k.AsBigFloat().Text('g', -1)
	}
	return strconv.Quote(k.GoString())
}
