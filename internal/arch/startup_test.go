package arch

import (
	"testing"

	_ "github.com/provadev/prova/internal/cli"
	"github.com/provadev/prova/internal/lazyre"
)

// compiledAtStart is read when this test package is initialised: after
// the initialisers of internal/cli, and so of every package the prova
// binary links but cmd/prova itself, before any test runs.
var compiledAtStart = lazyre.Compiled()

// TestStartCompilesNoLazyRegexp fails if an initialiser of a package the
// prova binary links compiles an expression declared with internal/lazyre
// (a package variable that calls one, say): every prova process would pay
// for it at start-up, whatever it runs. (That each expression compiles
// is TestEveryLazyExpressionCompiles.)
func TestStartCompilesNoLazyRegexp(t *testing.T) {
	if err := lazyre.Check(compiledAtStart); err != nil {
		t.Fatal(err)
	}
}
