package hclfast_test

import (
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	benchfanout "github.com/provadev/prova/bench/fanout"
	"github.com/provadev/prova/inventory/internal/hclfast"
)

// BenchmarkParse2000 parses ScaleInventory(2000), the file of make
// bench's inventory goal, with the fast path and with hclsyntax: the same
// tree (TestSameTreeAsHCLSyntax), side by side.
func BenchmarkParse2000(b *testing.B) {
	src := []byte(benchfanout.ScaleInventory(2000))
	b.Run("hclfast", func(b *testing.B) {
		b.SetBytes(int64(len(src)))
		b.ReportAllocs()
		for b.Loop() {
			if _, ok := hclfast.Parse(src, "inventory.hcl"); !ok {
				b.Fatal("declined")
			}
		}
	})
	b.Run("hclsyntax", func(b *testing.B) {
		b.SetBytes(int64(len(src)))
		b.ReportAllocs()
		for b.Loop() {
			if _, diags := hclsyntax.ParseConfig(src, "inventory.hcl", hcl.InitialPos); diags.HasErrors() {
				b.Fatal(diags)
			}
		}
	})
}
