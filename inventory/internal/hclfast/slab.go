package hclfast

import (
	"math/big"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
)

// slabs allocate the syntax tree's nodes in chunks rather than one by
// one: a 2,000-host inventory has some 40,000 nodes, and allocating them
// singly was a large part of the parse's cost in garbage collection. Each
// node is still its own value behind its own pointer, as hclsyntax makes
// it; a chunk lives as long as any node in it, and all of them belong to
// one file's tree.
type slabs struct {
	bodies    slab[hclsyntax.Body]
	attrs     slab[hclsyntax.Attribute]
	blocks    slab[hclsyntax.Block]
	literals  slab[hclsyntax.LiteralValueExpr]
	templates slab[hclsyntax.TemplateExpr]
	tuples    slab[hclsyntax.TupleConsExpr]
	objects   slab[hclsyntax.ObjectConsExpr]
	keys      slab[hclsyntax.ObjectConsKeyExpr]
	travs     slab[hclsyntax.ScopeTraversalExpr]
	floats    slab[big.Float]
	exprs     []hclsyntax.Expression
	steps     []hcl.Traverser
	items     []hclsyntax.ObjectConsItem
	strs      []string
	rngs      []hcl.Range
}

// take returns a copy of src in a slice cut from *free, with a capacity of
// its own length so that appending to it could not write into a
// neighbour. An empty src gives nil, as append to a nil slice leaves it
// in hclsyntax.
func take[T any](free *[]T, src []T) []T {
	n := len(src)
	if n == 0 {
		return nil
	}
	if len(*free) < n {
		*free = make([]T, max(chunk, n))
	}
	out := (*free)[0:n:n]
	*free = (*free)[n:]
	copy(out, src)
	return out
}

func (s *slabs) exprList(src []hclsyntax.Expression) []hclsyntax.Expression {
	return take(&s.exprs, src)
}

func (s *slabs) itemList(src []hclsyntax.ObjectConsItem) []hclsyntax.ObjectConsItem {
	return take(&s.items, src)
}

func (s *slabs) strings(src []string) []string      { return take(&s.strs, src) }
func (s *slabs) ranges(src []hcl.Range) []hcl.Range { return take(&s.rngs, src) }

const chunk = 128

type slab[T any] struct{ free []T }

func (s *slab[T]) get() *T {
	if len(s.free) == 0 {
		s.free = make([]T, chunk)
	}
	t := &s.free[0]
	s.free = s.free[1:]
	return t
}

func (s *slabs) float() *big.Float { return s.floats.get() }

func (s *slabs) body() *hclsyntax.Body      { return s.bodies.get() }
func (s *slabs) attr() *hclsyntax.Attribute { return s.attrs.get() }
func (s *slabs) block() *hclsyntax.Block    { return s.blocks.get() }
func (s *slabs) template() *hclsyntax.TemplateExpr {
	return s.templates.get()
}
func (s *slabs) tuple() *hclsyntax.TupleConsExpr   { return s.tuples.get() }
func (s *slabs) object() *hclsyntax.ObjectConsExpr { return s.objects.get() }

func (s *slabs) literal(v cty.Value, rng hcl.Range) *hclsyntax.LiteralValueExpr {
	l := s.literals.get()
	l.Val, l.SrcRange = v, rng
	return l
}

func (s *slabs) key(wrapped hclsyntax.Expression) *hclsyntax.ObjectConsKeyExpr {
	k := s.keys.get()
	k.Wrapped = wrapped
	return k
}

// parts is a one-element slice of its own capacity, so that appending to
// it (nothing does) could not write into a neighbour.
func (s *slabs) parts(e hclsyntax.Expression) []hclsyntax.Expression {
	out := one(&s.exprs)
	out[0] = e
	return out
}

// one cuts a one-element slice of its own capacity from *free.
func one[T any](free *[]T) []T {
	if len(*free) == 0 {
		*free = make([]T, chunk)
	}
	out := (*free)[0:1:1]
	*free = (*free)[1:]
	return out
}

// traversal is the ScopeTraversalExpr of a bare name.
func (s *slabs) traversal(name string, rng hcl.Range) *hclsyntax.ScopeTraversalExpr {
	steps := one(&s.steps)
	steps[0] = hcl.TraverseRoot{Name: name, SrcRange: rng}
	t := s.travs.get()
	t.Traversal, t.SrcRange = steps, rng
	return t
}
