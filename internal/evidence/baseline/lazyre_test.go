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

// TestInitialisersCompileNoRegexp checks that no package initialiser of
// this test binary compiled the baseline's regular expression (a measured
// number with its unit), and the record's it links: they are compiled on
// first use (internal/lazyre), so start-up pays for none. That each
// compiles is internal/arch's TestEveryLazyExpressionCompiles.
func TestInitialisersCompileNoRegexp(t *testing.T) {
	if err := lazyre.Check(compiledAtInit); err != nil {
		t.Fatal(err)
	}
	if v, ok := baseline.ParseNumber("12.5GiB/s"); !ok || v != 12.5 {
		t.Errorf("ParseNumber(12.5GiB/s) = %v, %v", v, ok)
	}
}
