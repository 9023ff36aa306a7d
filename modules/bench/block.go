package bench

import (
	"context"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hcldec"
	"github.com/zclconf/go-cty/cty"

	"github.com/provadev/prova/engine/module"
)

// Block is the "bench_block" module: elbencho or fio on a block device or
// file. The zero value is ready to use.
type Block struct{}

// NewBlock returns the bench_block module.
func NewBlock() *Block { return &Block{} }

// ID returns "bench_block".
func (*Block) ID() string { return "bench_block" }

// Spec describes the module's arguments.
func (*Block) Spec() hcldec.Spec {
	return &hcldec.ObjectSpec{
		"tool":        oneOf(required("tool", cty.String), blockTools),
		"path":        required("path", cty.String),
		"mode":        withDefault(oneOf(attr("mode", cty.String), modes), argDefaults["mode"]),
		"block_size":  attr("block_size", cty.String),
		"threads":     withDefault(attr("threads", cty.Number), argDefaults["threads"]),
		"iodepth":     withDefault(attr("iodepth", cty.Number), argDefaults["iodepth"]),
		"runtime":     attr("runtime", cty.String),
		"size":        attr("size", cty.String),
		"direct":      withDefault(attr("direct", cty.Bool), argDefaults["direct"]),
		"repeat":      withDefault(attr("repeat", cty.Number), argDefaults["repeat"]),
		"numa_node":   attr("numa_node", cty.Number),
		"extra_args":  attr("extra_args", cty.List(cty.String)),
		"cpu_capture": withDefault(attr("cpu_capture", cty.Bool), argDefaults["cpu_capture"]),
	}
}

// Outputs are the normalised results; a statistic the tool did not report
// is null.
func (*Block) Outputs() cty.Type { return outputsType }

// Validate checks durations, sizes, counts and the path.
func (*Block) Validate(v cty.Value) hcl.Diagnostics { return validate(v, "") }

// Plan says what would run: reads only read, write modes overwrite.
func (*Block) Plan(ctx context.Context, req module.PlanRequest) (module.PlanResponse, error) {
	if err := ctx.Err(); err != nil {
		return module.PlanResponse{}, err
	}
	a, err := decodeArgs(req.Args, "")
	if err != nil {
		return module.PlanResponse{}, err
	}
	if !a.reads() {
		return module.PlanResponse{Action: module.Change, Summary: "will run " + a.describe() + " (overwrites data)"}, nil
	}
	return module.PlanResponse{Action: module.NoOp, Summary: "will run " + a.describe()}, nil
}

// Apply runs the benchmark repeat times and returns the median results.
func (*Block) Apply(ctx context.Context, req module.ApplyRequest) (module.ApplyResponse, error) {
	resp := module.ApplyResponse{Outputs: nullOutputs()}
	if err := ctx.Err(); err != nil {
		return resp, err
	}
	a, err := decodeArgs(req.Args, "")
	if err != nil {
		return resp, err
	}
	if err := a.check(); err != nil {
		return resp, err
	}
	return repeated(ctx, req, a)
}

var (
	_ module.Module      = (*Block)(nil)
	_ module.Planner     = (*Block)(nil)
	_ module.Destructive = (*Block)(nil)
	_ module.Describer   = (*Block)(nil)
)
