package lab_test

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/provadev/prova/internal/cli"
	"github.com/provadev/prova/lab"
	"github.com/provadev/prova/lab/labtest"
)

// TestMain runs the tests through labtest.M, which removes the prova
// binary the lab tests build once the tests are done.
func TestMain(m *testing.M) {
	testscript.Main(labtest.M(m), map[string]func(){
		"prova": func() { os.Exit(cli.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) },
	})
}

// TestScript drives "prova lab up/status/expand/down" as a user would.
func TestScript(t *testing.T) {
	labtest.NeedRoot(t)
	testscript.Run(t, testscript.Params{
		Dir:                 "testdata/script",
		RequireExplicitExec: true,
		RequireUniqueNames:  true,
		Setup: func(env *testscript.Env) error {
			// A failed script must not leave a lab running.
			env.Defer(func() { lab.Down(filepath.Join(env.WorkDir, "lab"), false, 10*time.Second) })
			return nil
		},
	})
}
