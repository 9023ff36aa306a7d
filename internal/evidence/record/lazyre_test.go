package record_test

import (
	"testing"

	"github.com/provadev/prova/internal/evidence/record"
	"github.com/provadev/prova/internal/lazyre"
)

// compiledAtInit is read when this test package is initialised: after
// the record's initialisers (and those of everything this test binary
// links), before any test runs.
var compiledAtInit = lazyre.Compiled()

// TestInitialisersCompileNoRegexp checks that no package initialiser of
// this test binary compiled the record's regular expressions (the run
// identifier's and the blob path's): they are compiled on first use
// (internal/lazyre), so start-up pays for none. That each compiles is
// internal/arch's TestEveryLazyExpressionCompiles.
func TestInitialisersCompileNoRegexp(t *testing.T) {
	if err := lazyre.Check(compiledAtInit); err != nil {
		t.Fatal(err)
	}
	if !record.IsRunID("20261130T021500Z-0a1b2c") || record.IsRunID("20261130T021500Z-0a1b2") {
		t.Error("IsRunID does not match as its expression says")
	}
}
