package inventory_test

import (
	"testing"

	"github.com/provadev/prova/internal/lazyre"
	_ "github.com/provadev/prova/inventory"
)

// compiledAtInit is read when this test package is initialised: after
// the inventory's initialisers (and those of everything this test binary
// links), before any test runs.
var compiledAtInit = lazyre.Compiled()

// TestInitialisersCompileNoRegexp checks that no package initialiser of
// this test binary compiled the inventory's regular expressions (the INI
// and YAML readers' and the format guess's): they are compiled on first
// use (internal/lazyre), so start-up pays for none. That each compiles is
// internal/arch's TestEveryLazyExpressionCompiles.
func TestInitialisersCompileNoRegexp(t *testing.T) {
	if err := lazyre.Check(compiledAtInit); err != nil {
		t.Fatal(err)
	}
}
