package waiver

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/provadev/prova/internal/evidence/record"
)

// FuzzParse: no input makes Parse or Apply panic, and Parse always returns
// a set (holding the source for diagnostic snippets).
func FuzzParse(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "*.hcl"))
	for _, name := range files {
		b, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		set, _ := Parse(src, "fuzz.hcl")
		if set == nil {
			t.Fatal("Parse returned a nil set")
		}
		set.Apply([]record.Assertion{{Step: "assert.peers", Host: "gpfs05", Name: "peers", Verdict: "fail"}}, time.Unix(0, 0))
	})
}
