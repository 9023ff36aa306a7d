package runbooks_test

import (
	"os"
	"testing"

	"github.com/provadev/prova/lab/labtest"
)

// TestMain runs the tests through labtest.M, which removes the prova
// binary the lab tests build once the tests are done.
func TestMain(m *testing.M) { os.Exit(labtest.M(m).Run()) }
