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
// one file's tree. Chunks are sized from the file (n), so that a small
// file does not take 128 of each node type.
type slabs struct {
	n         int
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
func take[T any](free *[]T, src []T, chunk int) []T {
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
	return take(&s.exprs, src, s.n)
}

func (s *slabs) itemList(src []hclsyntax.ObjectConsItem) []hclsyntax.ObjectConsItem {
	return take(&s.items, src, s.n)
}

func (s *slabs) strings(src []string) []string      { return take(&s.strs, src, s.n) }
func (s *slabs) ranges(src []hcl.Range) []hcl.Range { return take(&s.rngs, src, s.n) }

// chunkFor is the chunk size for a file of size bytes: about one node of
// a kind per 100 bytes, from 4 to 128.
func chunkFor(size int) int {
	return min(max(size/100, 4), 128)
}

type slab[T any] struct{ free []T }

func (s *slab[T]) get(n int) *T {
	if len(s.free) == 0 {
		s.free = make([]T, n)
	}
	t := &s.free[0]
	s.free = s.free[1:]
	return t
}

func (s *slabs) float() *big.Float { return s.floats.get(s.n) }

func (s *slabs) body() *hclsyntax.Body      { return s.bodies.get(s.n) }
func (s *slabs) attr() *hclsyntax.Attribute { return s.attrs.get(s.n) }
func (s *slabs) block() *hclsyntax.Block    { return s.blocks.get(s.n) }
func (s *slabs) template() *hclsyntax.TemplateExpr {
	return s.templates.get(s.n)
}
func (s *slabs) tuple() *hclsyntax.TupleConsExpr   { return s.tuples.get(s.n) }
func (s *slabs) object() *hclsyntax.ObjectConsExpr { return s.objects.get(s.n) }

func (s *slabs) literal(v cty.Value, rng hcl.Range) *hclsyntax.LiteralValueExpr {
	l := s.literals.get(s.n)
	l.Val, l.SrcRange = v, rng
	return l
}

func (s *slabs) key(wrapped hclsyntax.Expression) *hclsyntax.ObjectConsKeyExpr {
	k := s.keys.get(s.n)
	k.Wrapped = wrapped
	return k
}

// parts is a one-element slice of its own capacity, so that appending to
// it (nothing does) could not write into a neighbour.
func (s *slabs) parts(e hclsyntax.Expression) []hclsyntax.Expression {
	out := one(&s.exprs, s.n)
	out[0] = e
	return out
}

// one cuts a one-element slice of its own capacity from *free.
func one[T any](free *[]T, chunk int) []T {
	if len(*free) == 0 {
		*free = make([]T, chunk)
	}
	out := (*free)[0:1:1]
	*free = (*free)[1:]
	return out
}

// traversal is the ScopeTraversalExpr of a bare name.
func (s *slabs) traversal(name string, rng hcl.Range) *hclsyntax.ScopeTraversalExpr {
	steps := one(&s.steps, s.n)
	steps[0] = hcl.TraverseRoot{Name: name, SrcRange: rng}
	t := s.travs.get(s.n)
	t.Traversal, t.SrcRange = steps, rng
	return t
}
