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

// sameNav checks that got.Nav is what ParseConfig sets: a value of the same
// type as want.Nav whose root is got's own body.
func sameNav(got, want *hcl.File) error {
	gv, wv := reflect.ValueOf(got.Nav), reflect.ValueOf(want.Nav)
	if !gv.IsValid() || gv.Type() != wv.Type() {
		return fmt.Errorf("Nav is a %T, hclsyntax sets a %T", got.Nav, want.Nav)
	}
	if gv.NumField() != 1 || gv.Field(0).Pointer() != reflect.ValueOf(got.Body).Pointer() {
		return fmt.Errorf("Nav does not hold the file's own body")
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
