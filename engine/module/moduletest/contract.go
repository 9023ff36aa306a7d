package moduletest

import (
	"regexp"
	"slices"
	"sort"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hcldec"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/provadev/prova/engine/config"
	"github.com/provadev/prova/engine/eval"
	"github.com/provadev/prova/engine/module"
)

var idPattern = regexp.MustCompile(`^[a-z][a-z0-9_]*$`)

// checkContract checks what holds for a module whatever its arguments.
func checkContract(t *testing.T, m module.Module) {
	t.Helper()
	if !idPattern.MatchString(m.ID()) {
		t.Errorf("ID %q does not match %s", m.ID(), idPattern)
	}
	if err := module.CheckKind(m); err != nil {
		t.Error(err)
	}
	spec := m.Spec()
	if spec == nil {
		t.Fatal("Spec() is nil")
	}
	if a, ok := m.(module.Arguments); ok {
		checkArgStruct(t, spec, a.NewArgs())
	}
	for _, n := range argNames(spec) {
		if slices.Contains(config.MetaArguments, n) {
			t.Errorf("argument %q clashes with the engine's meta-argument of the same name", n)
		}
	}
	out := m.Outputs()
	if !out.IsObjectType() {
		t.Fatalf("Outputs() is %s, want an object type", out.FriendlyName())
	}
	for n := range out.AttributeTypes() {
		if eval.CommonResultAttrs[n] != cty.NilType {
			t.Errorf("output %q clashes with the common step result attribute", n)
		}
	}
	// Validate sees unknown values during plan; it must not call them errors.
	if diags := m.Validate(allUnknown(spec)); diags.HasErrors() {
		t.Errorf("Validate with every argument unknown reported errors: %s", diags.Error())
	}
}

// allUnknown returns the decoded shape of spec with every attribute unknown.
func allUnknown(spec hcldec.Spec) cty.Value {
	ty := hcldec.ImpliedType(spec)
	if !ty.IsObjectType() {
		return cty.UnknownVal(ty)
	}
	attrs := map[string]cty.Value{}
	for n, at := range ty.AttributeTypes() {
		attrs[n] = cty.UnknownVal(at)
	}
	return cty.ObjectVal(attrs)
}

// argNames lists the attribute and block names the spec accepts, sorted.
func argNames(spec hcldec.Spec) []string {
	schema := hcldec.ImpliedSchema(spec)
	var names []string
	for _, a := range schema.Attributes {
		names = append(names, a.Name)
	}
	for _, b := range schema.Blocks {
		names = append(names, b.Type)
	}
	sort.Strings(names)
	return names
}

// checkDoc checks a Describer's documentation against its spec and outputs,
// and that every example step block decodes and validates.
func checkDoc(t *testing.T, m module.Module, d module.Describer) {
	t.Helper()
	doc := d.Doc()
	if doc.Summary == "" {
		t.Error("Doc().Summary is empty")
	}
	args := argNames(m.Spec())
	for _, n := range args {
		if doc.Args[n] == "" {
			t.Errorf("argument %q is not documented in Doc().Args", n)
		}
	}
	for n := range doc.Args {
		if !slices.Contains(args, n) {
			t.Errorf("Doc().Args documents %q, which the spec does not accept", n)
		}
	}
	outs := m.Outputs().AttributeTypes()
	for n := range outs {
		if doc.Outputs[n] == "" {
			t.Errorf("output %q is not documented in Doc().Outputs", n)
		}
	}
	for n := range doc.Outputs {
		if _, ok := outs[n]; !ok {
			t.Errorf("Doc().Outputs documents %q, which Outputs() does not have", n)
		}
	}
	if doc.Example == "" {
		t.Fatal("Doc().Example is empty")
	}
	checkExample(t, m, doc.Example)
}

func checkExample(t *testing.T, m module.Module, src string) {
	t.Helper()
	file, diags := hclsyntax.ParseConfig([]byte(src), "example.hcl", hcl.InitialPos)
	if diags.HasErrors() {
		t.Fatalf("example does not parse: %s", diags.Error())
	}
	content, diags := file.Body.Content(&hcl.BodySchema{Blocks: []hcl.BlockHeaderSchema{
		{Type: "step", LabelNames: []string{"module", "name"}},
	}})
	if diags.HasErrors() {
		t.Fatalf("example is not a list of step blocks: %s", diags.Error())
	}
	found := 0
	for _, b := range content.Blocks {
		if b.Labels[0] != m.ID() {
			continue
		}
		found++
		_, body, diags := b.Body.PartialContent(metaSchema())
		if diags.HasErrors() {
			t.Errorf("example step %q: meta-arguments: %s", b.Labels[1], diags.Error())
			continue
		}
		ectx := unknownContext(hcldec.Variables(body, m.Spec()))
		val, diags := hcldec.Decode(body, m.Spec(), ectx)
		diags = append(diags, m.Validate(val)...)
		if be, ok := m.(module.BodyEvaluator); ok {
			_, _, d := be.EvalBody(body, ectx)
			diags = append(diags, d...)
		}
		if diags.HasErrors() {
			t.Errorf("example step %q does not validate: %s", b.Labels[1], diags.Error())
		}
	}
	if found == 0 {
		t.Errorf("example has no step %q block", m.ID())
	}
}

func metaSchema() *hcl.BodySchema {
	s := &hcl.BodySchema{}
	for _, n := range config.MetaArguments {
		s.Attributes = append(s.Attributes, hcl.AttributeSchema{Name: n})
	}
	return s
}

// unknownContext binds every root name the traversals use to an unknown
// value of any type, as the engine does at validate time.
func unknownContext(trs []hcl.Traversal) *hcl.EvalContext {
	vars := map[string]cty.Value{}
	for _, tr := range trs {
		vars[tr.RootName()] = cty.DynamicVal
	}
	return &hcl.EvalContext{Variables: vars}
}
