package all_test

import (
	"testing"

	"github.com/provadev/prova/internal/lazyre"
	_ "github.com/provadev/prova/parse/all"
)

// compiledAtInit is read when this test package is initialised: after
// the initialisers of every parser (and of everything this test binary
// links), before any test runs.
var compiledAtInit = lazyre.Compiled()

// TestEveryParserExpressionCompiles compiles the regular expressions of
// every parser, which are compiled on first use (internal/lazyre): a bad
// one fails here rather than in the first run that parses with it. It
// also checks that no package initialiser compiled one: start-up pays
// for none.
func TestEveryParserExpressionCompiles(t *testing.T) {
	if err := lazyre.Check(compiledAtInit); err != nil {
		t.Fatal(err)
	}
}
