package hclfast

import (
	"math/big"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
)

// Parse returns the file that hclsyntax.ParseConfig(src, filename,
// hcl.InitialPos) returns, node for node, when src is in the subset (see
// the package documentation) and hclsyntax would report no diagnostic at
// all. ok is false for anything else, and the caller then parses with
// hclsyntax, which reports the file's diagnostics.
func Parse(src []byte, filename string) (file *hcl.File, ok bool) {
	p := &parser{scanner: scanner{src: src, str: string(src), filename: filename, pos: hcl.InitialPos}}
	p.slabs.n = chunkFor(len(src))
	body, ok := p.body(true)
	if !ok {
		return nil, false
	}
	return &hcl.File{Body: body, Bytes: src, Nav: navigation{root: body}}, true
}

type parser struct {
	scanner
	// last is the last token read: its range is hclsyntax's
	// peeker.PrevRange.
	last  token
	slabs slabs

	// stack and items hold the elements of the tuples and objects being
	// parsed; each gets an exact-size copy when it closes
	stack []hclsyntax.Expression
	items []hclsyntax.ObjectConsItem
	// labels of the block header being parsed
	labels      []string
	labelRanges []hcl.Range

	// the token peek scanned last: at byte offset peekAt in mode peekNL
	peeked   token
	peekAt   int
	peekNL   bool
	havePeek bool
}

// peek is the next token in the given newline mode; read moves past it.
// The token scanned by a peek is kept for the read or peek that follows
// at the same place in the same mode.
func (p *parser) peek(newlines bool) *token {
	if !p.havePeek || p.peekAt != p.pos.Byte || p.peekNL != newlines {
		p.peeked = p.next(newlines)
		p.peekAt, p.peekNL, p.havePeek = p.pos.Byte, newlines, true
	}
	return &p.peeked
}

func (p *parser) read(newlines bool) token {
	t := *p.peek(newlines)
	p.pos = t.end
	p.havePeek = false
	p.last = t
	return t
}

// body parses a body up to the end of the file (top) or its closing
// brace, as hclsyntax's ParseBody does, and returns it; the opening brace
// of a block body has been read.
func (p *parser) body(top bool) (*hclsyntax.Body, bool) {
	var start hcl.Range
	if top {
		start = p.rng(p.peek(true)) // PrevRange before the first token is NextRange
	} else {
		start = p.rng(&p.last)
	}
	end := kCBrace
	if top {
		end = kEOF
	}
	b := p.slabs.body()
	b.Attributes = hclsyntax.Attributes{}
	b.Blocks = hclsyntax.Blocks{}
	for {
		switch p.peek(true).kind {
		case end:
			t := p.read(true)
			b.SrcRange = hcl.Range{Filename: p.filename, Start: start.Start, End: t.end}
			b.EndRange = hcl.Range{Filename: p.filename, Start: t.end, End: t.end}
			return b, true
		case kNewline:
			p.read(true)
		case kIdent:
			if !p.item(b) {
				return nil, false
			}
		default:
			return nil, false
		}
	}
}

// item parses an attribute or a block into b.
func (p *parser) item(b *hclsyntax.Body) bool {
	ident := p.read(true)
	name := p.str[ident.from:ident.to]
	switch p.peek(true).kind {
	case kEqual:
		eq := p.read(true)
		expr, ok := p.expr(true)
		if !ok {
			return false
		}
		exprEnd := p.last.end
		switch p.peek(true).kind {
		case kNewline:
			p.read(true)
		case kEOF:
		default:
			return false // "Missing newline after argument"
		}
		if _, dup := b.Attributes[name]; dup {
			return false // "Attribute redefined"
		}
		a := p.slabs.attr()
		*a = hclsyntax.Attribute{
			Name:        name,
			Expr:        expr,
			SrcRange:    hcl.Range{Filename: p.filename, Start: ident.start, End: exprEnd},
			NameRange:   p.rng(&ident),
			EqualsRange: p.rng(&eq),
		}
		b.Attributes[name] = a
		return true
	case kString, kOBrace:
		blk, ok := p.block(ident, name)
		if !ok {
			return false
		}
		b.Blocks = append(b.Blocks, blk)
		return true
	default:
		return false // identifier labels and anything else
	}
}

// block parses the rest of a block whose type identifier was read.
func (p *parser) block(ident token, typ string) (*hclsyntax.Block, bool) {
	blk := p.slabs.block()
	blk.Type = typ
	blk.TypeRange = p.rng(&ident)
	for {
		k := p.peek(true).kind
		if k == kOBrace {
			break
		}
		if k != kString {
			return nil, false
		}
		t := p.read(true)
		_, val := p.literal(&t)
		p.labels = append(p.labels, val)
		p.labelRanges = append(p.labelRanges, p.rng(&t))
	}
	blk.Labels = p.slabs.strings(p.labels)
	blk.LabelRanges = p.slabs.ranges(p.labelRanges)
	p.labels, p.labelRanges = p.labels[:0], p.labelRanges[:0]
	brace := p.read(true)
	blk.OpenBraceRange = p.rng(&brace)
	switch p.peek(true).kind {
	case kNewline, kCBrace:
	default:
		return nil, false // single-line block bodies, and the unclosed block at EOF
	}
	body, ok := p.body(false)
	if !ok {
		return nil, false
	}
	blk.Body = body
	blk.CloseBraceRange = p.rng(&p.last)
	switch p.peek(true).kind {
	case kNewline:
		p.read(true)
	case kEOF:
	default:
		return nil, false // "Missing newline after block definition"
	}
	return blk, true
}

// expr parses a value of the subset in the given newline mode: a quoted
// string, a number, true, false, null, a tuple or an object. What follows
// it is for the caller to check, so that an operator, a traversal or a
// conditional after the value makes the file decline.
func (p *parser) expr(newlines bool) (hclsyntax.Expression, bool) {
	switch p.peek(newlines).kind {
	case kString:
		t := p.read(newlines)
		return p.template(t), true
	case kNumber:
		t := p.read(newlines)
		v, ok := p.number(p.str[t.from:t.to])
		if !ok {
			return nil, false // "Invalid number literal"
		}
		return p.slabs.literal(v, p.rng(&t)), true
	case kIdent:
		t := p.peek(newlines)
		var v cty.Value
		switch p.str[t.from:t.to] {
		case "true":
			v = cty.True
		case "false":
			v = cty.False
		case "null":
			v = cty.NullVal(cty.DynamicPseudoType)
		default:
			return nil, false // a reference, or a function call
		}
		lt := p.read(newlines)
		return p.slabs.literal(v, p.rng(&lt)), true
	case kOBrack:
		return p.tuple(newlines)
	case kOBrace:
		return p.object(newlines)
	}
	return nil, false
}

// template is the TemplateExpr hclsyntax makes of a quoted string without
// interpolation: one literal part, whose range is the zero-width one after
// the opening quote when the string is empty.
func (p *parser) template(t token) *hclsyntax.TemplateExpr {
	rng, val := p.literal(&t)
	lit := p.slabs.literal(cty.StringVal(val), rng)
	te := p.slabs.template()
	te.Parts = p.slabs.parts(lit)
	te.SrcRange = p.rng(&t)
	return te
}

// tuple parses [a, b, ...] with newlines ignored inside, as hclsyntax does.
func (p *parser) tuple(outer bool) (hclsyntax.Expression, bool) {
	open := p.read(outer)
	mark := len(p.stack)
	for {
		t := p.peek(false)
		if t.kind == kCBrack {
			break
		}
		if t.kind == kIdent && p.str[t.from:t.to] == "for" {
			return nil, false
		}
		e, ok := p.expr(false)
		if !ok {
			return nil, false
		}
		p.stack = append(p.stack, e)
		t = p.peek(false)
		if t.kind == kCBrack {
			break
		}
		if t.kind != kComma {
			return nil, false
		}
		p.read(false)
	}
	closeTok := p.read(false)
	exprs := p.slabs.exprList(p.stack[mark:])
	p.stack = p.stack[:mark] // the parser is dropped with the file parsed: no need to clear
	tc := p.slabs.tuple()
	*tc = hclsyntax.TupleConsExpr{Exprs: exprs, SrcRange: hcl.Range{Filename: p.filename, Start: open.start, End: closeTok.end}, OpenRange: p.rng(&open)}
	return tc, true
}

// object parses { k = v, "k" = v, k: v } with newlines significant
// inside: an item ends with a comma or a newline, as in hclsyntax.
func (p *parser) object(outer bool) (hclsyntax.Expression, bool) {
	open := p.read(outer)
	if t := p.peek(false); t.kind == kIdent && p.str[t.from:t.to] == "for" {
		return nil, false // a for expression
	}
	mark := len(p.items)
	for {
		t := p.peek(true)
		if t.kind == kNewline {
			p.read(true)
			continue
		}
		if t.kind == kCBrace {
			break
		}
		var key hclsyntax.Expression
		switch t.kind {
		case kString:
			key = p.template(p.read(true))
		case kIdent:
			switch p.str[t.from:t.to] {
			case "true", "false", "null", "for":
				return nil, false
			}
			kt := p.read(true)
			key = p.slabs.traversal(p.str[kt.from:kt.to], p.rng(&kt))
		default:
			return nil, false // numbers, (expressions) and the rest
		}
		if k := p.peek(true).kind; k != kEqual && k != kColon {
			return nil, false
		}
		p.read(true)
		v, ok := p.expr(true)
		if !ok {
			return nil, false
		}
		p.items = append(p.items, hclsyntax.ObjectConsItem{KeyExpr: p.slabs.key(key), ValueExpr: v})
		t = p.peek(true)
		if t.kind == kCBrace {
			break
		}
		if t.kind != kComma && t.kind != kNewline {
			return nil, false
		}
		p.read(true)
	}
	closeTok := p.read(true)
	items := p.slabs.itemList(p.items[mark:])
	p.items = p.items[:mark]
	oc := p.slabs.object()
	*oc = hclsyntax.ObjectConsExpr{Items: items, SrcRange: hcl.Range{Filename: p.filename, Start: open.start, End: closeTok.end}, OpenRange: p.rng(&open)}
	return oc, true
}

// number is cty.ParseNumberVal(text), as hclsyntax makes a number
// literal's value. A plain integer of up to 18 digits (every port, index
// and count of an inventory) is made without the decimal parser: a
// big.Float of ParseNumberVal's precision (512) and rounding mode set to
// the integer is the same value, with the same precision, mode, accuracy
// and mantissa (the differential test compares their GobEncode bytes).
func (p *parser) number(text string) (cty.Value, bool) {
	if len(text) <= 18 {
		var n int64
		for i := 0; i < len(text); i++ {
			c := text[i]
			if c < '0' || c > '9' {
				goto general
			}
			n = n*10 + int64(c-'0')
		}
		f := p.slabs.float()
		f.SetPrec(512).SetMode(big.ToNearestEven).SetInt64(n)
		return cty.NumberVal(f), true
	}
general:
	v, err := cty.ParseNumberVal(text)
	return v, err == nil
}
