package baseline_test

import (
	"testing"

	"github.com/provadev/prova/internal/evidence/baseline"
	"github.com/provadev/prova/internal/lazyre"
)

// compiledAtInit is read when this test package is initialised: after
// the baseline's initialisers (and those of everything this test binary
// links), before any test runs.
var compiledAtInit = lazyre.Compiled()

// TestRegexpsCompileOnFirstUse compiles the baseline's regular expression
// (a measured number with its unit), and the record's it links, which are
// compiled on first use (internal/lazyre): a bad one fails here rather
// than in the first comparison. It also checks that no package
// initialiser compiled one.
func TestRegexpsCompileOnFirstUse(t *testing.T) {
	if err := lazyre.Check(compiledAtInit); err != nil {
		t.Fatal(err)
	}
	if v, ok := baseline.ParseNumber("12.5GiB/s"); !ok || v != 12.5 {
		t.Errorf("ParseNumber(12.5GiB/s) = %v, %v", v, ok)
	}
}
