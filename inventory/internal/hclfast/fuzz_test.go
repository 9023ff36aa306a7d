package hclfast_test

import (
	"testing"

	benchfanout "github.com/provadev/prova/bench/fanout"
)

// FuzzSameTree: for any input, the fast path declines, or hclsyntax
// reports no diagnostic and its tree equals the fast path's. Seeds: the
// repository's HCL files, ScaleInventory and the edge cases.
func FuzzSameTree(f *testing.F) {
	for _, src := range corpus(f, repoRoot(f)) {
		if len(src) < 64<<10 {
			f.Add(src)
		}
	}
	f.Add([]byte(benchfanout.ScaleInventory(3)))
	for _, e := range edges {
		f.Add([]byte(e.src))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		if _, err := check(src, "fuzz.hcl"); err != nil {
			t.Fatal(err)
		}
	})
}
