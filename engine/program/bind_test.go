package program

import (
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hcldec"

	"github.com/provadev/prova/engine/config"
	"github.com/provadev/prova/engine/eval"
	"github.com/provadev/prova/engine/module"
)

// specCounter is cmdModule counting the calls of its Spec.
type specCounter struct {
	cmdModule
	calls *atomic.Int64
}

func (m specCounter) Spec() hcldec.Spec {
	m.calls.Add(1)
	return m.cmdModule.Spec()
}

// TestBindAsksTheSchemaOnce: a module's Spec builds its schema on every
// call, so Bind asks it once per step and validation, the dependency walk
// and the references read what Bind kept, which must be what asking again
// gives.
func TestBindAsksTheSchemaOnce(t *testing.T) {
	rb, diags := config.Load("testdata/valid/refs.hcl")
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	var calls atomic.Int64
	reg := module.NewRegistry()
	reg.Register(specCounter{calls: &calls})
	prog, diags := Bind(rb, reg)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	vars, d := eval.ResolveVariables(rb, eval.Inputs{Partial: true})
	diags = append(diags, d...)
	scope := eval.NewScope(vars.Values, nil, nil, rb.BaseDir, prog.ResultTypes())
	diags = append(diags, Validate(prog, scope)...)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	for _, s := range prog.Steps {
		_ = s.References()
		_ = s.BodyReferences()
		_ = s.ModuleSpec()
	}
	if got, want := calls.Load(), int64(len(prog.Steps)); got != want {
		t.Errorf("Spec was called %d times for %d steps; want once per step", got, want)
	}

	text := func(trs []hcl.Traversal) []string {
		var out []string
		for _, tr := range trs {
			out = append(out, tr.SourceRange().String())
		}
		return out
	}
	sawRefs := false
	for _, s := range prog.Steps {
		if d := cmp.Diff(text(references(s.Step, s.Module)), text(s.References())); d != "" {
			t.Errorf("step %s: kept references differ from the step's (-asked +kept):\n%s", s.Name, d)
		}
		if d := cmp.Diff(text(hcldec.Variables(s.Body, s.Module.Spec())), text(s.BodyReferences())); d != "" {
			t.Errorf("step %s: kept body references differ (-asked +kept):\n%s", s.Name, d)
		}
		sawRefs = sawRefs || len(s.BodyReferences()) > 0
	}
	if !sawRefs {
		t.Fatal("refs.hcl has no step whose body references anything: the comparison proves nothing")
	}
	// A Step made without Bind (engine tests do) asks its module each time.
	unbound := &Step{Step: prog.Steps[0].Step, Module: prog.Steps[0].Module}
	before := calls.Load()
	_ = unbound.ModuleSpec()
	if calls.Load() != before+1 {
		t.Error("an unbound step must ask its module for the schema")
	}
}
