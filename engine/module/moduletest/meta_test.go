package moduletest

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/provadev/prova/engine/config"
)

// The suite keeps its own copy of the engine's meta-argument names (modules
// may not import engine/config); this keeps the two in step.
func TestMetaArgumentsMatchEngine(t *testing.T) {
	if diff := cmp.Diff(config.MetaArguments, MetaArguments()); diff != "" {
		t.Fatalf("moduletest.MetaArguments differs from engine/config (-engine +moduletest):\n%s", diff)
	}
}
