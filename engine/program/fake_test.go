package program

import (
	"context"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hcldec"
	"github.com/zclconf/go-cty/cty"

	"github.com/provadev/prova/engine/module"
)

// cmdModule is a minimal module for engine tests: it runs `command`.
type cmdModule struct{}

func (cmdModule) ID() string { return "cmd" }
func (cmdModule) Spec() hcldec.Spec {
	return &hcldec.ObjectSpec{
		"command": &hcldec.AttrSpec{Name: "command", Type: cty.String, Required: true},
		"count":   &hcldec.AttrSpec{Name: "count", Type: cty.Number},
	}
}
func (cmdModule) Outputs() cty.Type {
	return cty.Object(map[string]cty.Type{"lines": cty.List(cty.String)})
}
func (cmdModule) Validate(args cty.Value) hcl.Diagnostics {
	if c := args.GetAttr("count"); c.IsKnown() && !c.IsNull() && c.LessThan(cty.Zero).True() {
		return hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Invalid count", Detail: "count must not be negative"}}
	}
	return nil
}
func (cmdModule) Plan(ctx context.Context, req module.PlanRequest) (module.PlanResponse, error) {
	return module.PlanResponse{Action: module.Change}, nil
}
func (cmdModule) Apply(ctx context.Context, req module.ApplyRequest) (module.ApplyResponse, error) {
	return module.ApplyResponse{Changed: true}, nil
}

func testRegistry() *module.Registry {
	r := module.NewRegistry()
	r.Register(cmdModule{})
	return r
}
