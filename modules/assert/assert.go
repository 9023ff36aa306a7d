package assert

import (
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hcldec"
	"github.com/zclconf/go-cty/cty"

	"github.com/provadev/prova/engine/module"
)

// Assert is the "assert" module. The zero value is ready to use.
type Assert struct{}

// New returns the assert module.
func New() *Assert { return &Assert{} }

// ID returns "assert".
func (*Assert) ID() string { return "assert" }

// Spec describes the body: a condition and error_message pair, check blocks,
// or both.
func (*Assert) Spec() hcldec.Spec {
	return &hcldec.ObjectSpec{
		"condition":     &hcldec.AttrSpec{Name: "condition", Type: cty.Bool},
		"error_message": &hcldec.AttrSpec{Name: "error_message", Type: cty.String},
		"check": &hcldec.BlockTupleSpec{TypeName: "check", Nested: &hcldec.ObjectSpec{
			"condition":     &hcldec.AttrSpec{Name: "condition", Type: cty.Bool, Required: true},
			"error_message": &hcldec.AttrSpec{Name: "error_message", Type: cty.String, Required: true},
			"name":          &hcldec.AttrSpec{Name: "name", Type: cty.String},
			"measured":      &hcldec.AttrSpec{Name: "measured", Type: cty.DynamicPseudoType},
			"threshold":     &hcldec.AttrSpec{Name: "threshold", Type: cty.DynamicPseudoType},
		}},
	}
}

// rootSchema and checkSchema are the schemas EvalBody reads; they match
// Spec (a test checks it).
func rootSchema() *hcl.BodySchema {
	return &hcl.BodySchema{
		Attributes: []hcl.AttributeSchema{{Name: "condition"}, {Name: "error_message"}},
		Blocks:     []hcl.BlockHeaderSchema{{Type: "check"}},
	}
}

func checkSchema() *hcl.BodySchema {
	return &hcl.BodySchema{Attributes: []hcl.AttributeSchema{
		{Name: "condition", Required: true},
		{Name: "error_message", Required: true},
		{Name: "name"},
		{Name: "measured"},
		{Name: "threshold"},
	}}
}

// Outputs says whether every check passed and lists the messages of those
// that did not.
func (*Assert) Outputs() cty.Type {
	return cty.Object(map[string]cty.Type{"passed": cty.Bool, "failures": cty.List(cty.String)})
}

// Validate checks that condition and error_message come together and that
// there is at least one check.
func (*Assert) Validate(args cty.Value) hcl.Diagnostics {
	args, _ = args.UnmarkDeep()
	if !args.IsKnown() || args.IsNull() {
		return nil
	}
	cond, msg, blocks := args.GetAttr("condition"), args.GetAttr("error_message"), args.GetAttr("check")
	var diags hcl.Diagnostics
	switch {
	case cond.IsNull() && !msg.IsNull():
		diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Missing condition",
			Detail: "error_message is set but condition is not; they go together."})
	case !cond.IsNull() && msg.IsNull():
		diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Missing error_message",
			Detail: "Every condition needs an error_message saying what is wrong, with the actual values."})
	case cond.IsNull() && blocks.IsKnown() && (blocks.IsNull() || blocks.LengthInt() == 0):
		diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "No assertion",
			Detail: "Set condition and error_message, or add one or more check blocks."})
	}
	return diags
}

// Doc documents the module.
func (*Assert) Doc() module.Doc {
	return module.Doc{
		Summary: "Checks conditions on the controller against variables, host facts and earlier steps' results; a false condition fails the step with a diagnostic showing the values involved.",
		Args: map[string]string{
			"condition":     "Boolean expression that must hold (with error_message).",
			"error_message": "Message shown when condition is false; interpolate the actual values.",
			"check":         "Block, repeatable: condition, error_message, and optional name, measured (the value measured) and threshold (the limit it is held to), kept in the run record.",
		},
		Outputs: map[string]string{
			"passed":   "True when every condition held.",
			"failures": "Error messages of the conditions that did not hold.",
		},
		Example: `step "assert" "rdma_enabled" {
  condition     = step.shell.verbs.stdout == "verbsRdma enable"
  error_message = "verbsRdma is ${step.shell.verbs.stdout} on ${host.name}"
}

step "assert" "latency" {
  severity = "warn"
  check {
    name          = "ib_write_lat average"
    measured      = step.bench.lat.lat_avg_us
    threshold     = var.max_lat_us
    condition     = step.bench.lat.lat_avg_us <= var.max_lat_us
    error_message = "average latency ${step.bench.lat.lat_avg_us} us exceeds ${var.max_lat_us} us"
  }
}`,
	}
}

var (
	_ module.Module        = (*Assert)(nil)
	_ module.BodyEvaluator = (*Assert)(nil)
	_ module.Describer     = (*Assert)(nil)
)
