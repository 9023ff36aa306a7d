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

// TestRegexpsCompileOnFirstUse compiles the record's regular expressions
// (the run identifier's and the blob path's), which are compiled on first
// use (internal/lazyre): a bad one fails here rather than in the first
// run that reads a record. It also checks that no package initialiser
// compiled one.
func TestRegexpsCompileOnFirstUse(t *testing.T) {
	if err := lazyre.Check(compiledAtInit); err != nil {
		t.Fatal(err)
	}
	if !record.IsRunID("20261130T021500Z-0a1b2c") || record.IsRunID("20261130T021500Z-0a1b2") {
		t.Error("IsRunID does not match as its expression says")
	}
}
