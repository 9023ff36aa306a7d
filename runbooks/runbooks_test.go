package runbooks

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/hashicorp/hcl/v2/hclwrite"

	"github.com/provadev/prova/engine/config"
	"github.com/provadev/prova/engine/eval"
	"github.com/provadev/prova/engine/program"
	"github.com/provadev/prova/modules/all"
)

// Every shipped runbook validates against the built-in modules with no
// diagnostic at all, and is formatted as prova fmt would.
func TestShippedRunbooksValidate(t *testing.T) {
	files, _ := filepath.Glob("*.hcl")
	lib, _ := filepath.Glob("lib/*.hcl")
	if len(files) == 0 {
		t.Fatal("no runbooks")
	}
	for _, f := range append(files, lib...) {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(hclwrite.Format(src), src) {
			t.Errorf("%s is not formatted (run prova fmt)", f)
		}
	}
	for _, f := range files {
		t.Run(f, func(t *testing.T) {
			rb, diags := config.Load(f)
			if diags.HasErrors() {
				t.Fatal(diags.Error())
			}
			prog, diags := program.Bind(rb, all.Registry())
			if len(diags) > 0 {
				t.Fatal(diags.Error())
			}
			vars, diags := eval.ResolveVariables(rb, eval.Inputs{Partial: true})
			if len(diags) > 0 {
				t.Fatal(diags.Error())
			}
			scope := eval.NewScope(vars.Values, nil, nil, rb.BaseDir, prog.ResultTypes())
			locals, diags := eval.EvalLocals(rb, scope.StaticBase())
			if len(diags) > 0 {
				t.Fatal(diags.Error())
			}
			scope.Locals = locals
			if diags := program.Validate(prog, scope); len(diags) > 0 {
				t.Fatal(diags.Error())
			}
		})
	}
}
