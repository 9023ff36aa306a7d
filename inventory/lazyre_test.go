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

// TestRegexpsCompileOnFirstUse compiles the inventory's regular
// expressions (the INI and YAML readers' and the format guess's), which
// are compiled on first use (internal/lazyre): a bad one fails here
// rather than in the first import that reads with it. It also checks
// that no package initialiser compiled one.
func TestRegexpsCompileOnFirstUse(t *testing.T) {
	if err := lazyre.Check(compiledAtInit); err != nil {
		t.Fatal(err)
	}
}
