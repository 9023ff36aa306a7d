package all_test

import (
	"testing"

	_ "github.com/provadev/prova/parse/all"
	"github.com/provadev/prova/parse/internal/lazyre"
)

// TestEveryParserExpressionCompiles compiles the regular expressions of
// every parser, which are compiled on first use (parse/internal/lazyre):
// a bad one fails here rather than in the first run that parses with it.
func TestEveryParserExpressionCompiles(t *testing.T) {
	if err := lazyre.CompileAll(); err != nil {
		t.Fatal(err)
	}
}
