package hclfast_test

import (
	"bytes"
	"fmt"
	"math/big"
	"reflect"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/provadev/prova/inventory/internal/hclfast"
)

// treeOpts compare two syntax trees node for node: every field, the
// unexported ones included, every range, and cty values by type,
// value and, for numbers, precision, rounding mode, accuracy and the
// exact mantissa (GobEncode).
var treeOpts = cmp.Options{
	cmp.Comparer(sameValue),
	cmp.Exporter(func(reflect.Type) bool { return true }), // Body's hidden sets, TraverseRoot's marker
	cmpopts.IgnoreFields(hcl.File{}, "Nav"),               // compared by sameNav
}

func sameValue(a, b cty.Value) bool {
	if !a.Type().Equals(b.Type()) || a.IsKnown() != b.IsKnown() || a.IsNull() != b.IsNull() {
		return false
	}
	if !a.IsKnown() || a.IsNull() {
		return true
	}
	if a.Type() == cty.Number {
		return sameFloat(a.AsBigFloat(), b.AsBigFloat())
	}
	return a.RawEquals(b)
}

func sameFloat(a, b *big.Float) bool {
	if a.Cmp(b) != 0 || a.Prec() != b.Prec() || a.Mode() != b.Mode() || a.Acc() != b.Acc() {
		return false
	}
	ga, errA := a.GobEncode()
	gb, errB := b.GobEncode()
	return errA == nil && errB == nil && bytes.Equal(ga, gb)
}

// navigator is what hcl asks of a file's Nav.
type navigator interface {
	ContextString(offset int) string
	ContextDefRange(offset int) hcl.Range
}

// sameNav checks that got.Nav answers as hclsyntax's Nav of the same
// source: at every offset of a small file, and at the edges of every
// top-level block (and of its definition) of a large one.
func sameNav(got, want *hcl.File) error {
	g, ok := got.Nav.(navigator)
	if !ok {
		return fmt.Errorf("Nav is a %T, which does not name the block around an offset", got.Nav)
	}
	w := want.Nav.(navigator)
	var offsets []int
	if len(want.Bytes) <= 4096 {
		for o := -1; o <= len(want.Bytes)+1; o++ {
			offsets = append(offsets, o)
		}
	} else {
		offsets = append(offsets, -1, 0, len(want.Bytes)-1, len(want.Bytes), len(want.Bytes)+1)
		for _, b := range want.Body.(*hclsyntax.Body).Blocks {
			for _, r := range []hcl.Range{b.Range(), b.DefRange()} {
				offsets = append(offsets, r.Start.Byte-1, r.Start.Byte, r.Start.Byte+1, r.End.Byte-1, r.End.Byte, r.End.Byte+1)
			}
		}
	}
	for _, o := range offsets {
		if gs, ws := g.ContextString(o), w.ContextString(o); gs != ws {
			return fmt.Errorf("Nav's context at byte %d is %q, hclsyntax's %q", o, gs, ws)
		}
		if gr, wr := g.ContextDefRange(o), w.ContextDefRange(o); gr != wr {
			return fmt.Errorf("Nav's definition range at byte %d is %v, hclsyntax's %v", o, gr, wr)
		}
	}
	return nil
}

// check parses src both ways. taken tells whether the fast path took it;
// err is set when it took a file that hclsyntax reports a diagnostic for,
// or made a tree different from hclsyntax's.
func check(src []byte, filename string) (taken bool, err error) {
	want, diags := hclsyntax.ParseConfig(src, filename, hcl.InitialPos)
	got, ok := hclfast.Parse(src, filename)
	if !ok {
		if got != nil {
			return false, fmt.Errorf("declined, but returned a file")
		}
		return false, nil
	}
	if len(diags) > 0 {
		return true, fmt.Errorf("fast path took a file hclsyntax reports diagnostics for: %s", diags.Error())
	}
	if d := cmp.Diff(want, got, treeOpts); d != "" {
		return true, fmt.Errorf("tree differs from hclsyntax's (-hclsyntax +fast):\n%s", d)
	}
	return true, sameNav(got, want)
}
