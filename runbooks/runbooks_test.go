package runbooks

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclwrite"
	"github.com/zclconf/go-cty/cty"

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

// longSteps are the modules whose steps can rightly run longer than a
// runbook's step_timeout (a rolling restart of every node, a benchmark, a
// pairwise latency sweep): their steps set a timeout of their own.
var longSteps = map[string]bool{"gpfs_restart": true, "bench": true, "rdma_latency": true}

// No shipped runbook can block forever on a hung command: each sets
// step_timeout, which bounds every step without a timeout of its own, and
// the long-running steps set their own.
func TestShippedRunbooksBoundEveryStep(t *testing.T) {
	files, _ := filepath.Glob("*.hcl")
	for _, f := range files {
		rb, diags := config.Load(f)
		if diags.HasErrors() {
			t.Fatal(diags.Error())
		}
		if rb.StepTimeout <= 0 {
			t.Errorf("%s: no runbook { step_timeout = ... }", f)
		}
		defaults := map[string]cty.Value{}
		for _, v := range rb.Variables {
			if v.Default != cty.NilVal {
				defaults[v.Name] = v.Default
			}
		}
		ctx := &hcl.EvalContext{Variables: map[string]cty.Value{"var": cty.ObjectVal(defaults)}}
		for _, s := range rb.Steps {
			if !longSteps[s.Module] {
				continue
			}
			if s.Timeout == nil {
				t.Errorf("%s: step %s may run longer than step_timeout and sets no timeout of its own", f, s.ID())
				continue
			}
			// Its default is a duration longer than the runbook's bound.
			v, diags := s.Timeout.Value(ctx)
			if diags.HasErrors() || v.Type() != cty.String {
				t.Errorf("%s: step %s: timeout does not evaluate to a duration with the defaults: %s", f, s.ID(), diags.Error())
				continue
			}
			if d, err := time.ParseDuration(v.AsString()); err != nil || d <= rb.StepTimeout {
				t.Errorf("%s: step %s: timeout %q is not a duration longer than step_timeout %s", f, s.ID(), v.AsString(), rb.StepTimeout)
			}
		}
	}
}
