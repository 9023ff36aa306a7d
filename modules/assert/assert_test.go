package assert

import (
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/provadev/prova/engine/module/moduletest"
)

// ectx is a scope like the engine's at apply time on one host.
func ectx() *hcl.EvalContext {
	return &hcl.EvalContext{Variables: map[string]cty.Value{
		"var": cty.ObjectVal(map[string]cty.Value{
			"max_lat_us": cty.NumberIntVal(5),
			"mode":       cty.StringVal("enable"),
		}),
		"host": cty.ObjectVal(map[string]cty.Value{"name": cty.StringVal("nsd01")}),
		"step": cty.ObjectVal(map[string]cty.Value{
			"bench": cty.ObjectVal(map[string]cty.Value{
				"lat": cty.ObjectVal(map[string]cty.Value{"lat_avg_us": cty.NumberFloatVal(7.5)}),
			}),
			"shell": cty.ObjectVal(map[string]cty.Value{
				"verbs": cty.ObjectVal(map[string]cty.Value{"stdout": cty.StringVal("verbsRdma enable")}),
			}),
		}),
	}}
}

func TestConformance(t *testing.T) {
	moduletest.Run(t, New(), []moduletest.Case{
		{
			Name: "holds",
			Body: `
condition     = step.shell.verbs.stdout == "verbsRdma ${var.mode}"
error_message = "verbsRdma is ${step.shell.verbs.stdout} on ${host.name}"`,
			EvalContext: ectx(),
		},
		{
			Name: "checks",
			Body: `
check {
  name          = "latency"
  measured      = step.bench.lat.lat_avg_us
  threshold     = 10
  condition     = step.bench.lat.lat_avg_us <= 10
  error_message = "too slow"
}
check {
  condition     = host.name != ""
  error_message = "no host name"
}`,
			EvalContext: ectx(),
		},
		{
			Name: "fails",
			Body: `
condition     = step.bench.lat.lat_avg_us <= var.max_lat_us
error_message = "average latency ${step.bench.lat.lat_avg_us} us exceeds ${var.max_lat_us} us"`,
			EvalContext: ectx(),
			WantFailed:  true,
		},
	})
}
