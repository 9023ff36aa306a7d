package bench

import (
	"context"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hcldec"
	"github.com/zclconf/go-cty/cty"

	"github.com/provadev/prova/engine/module"
)

// ptRole runs one of perftest's ib_* tools in one role; the three
// modules below differ only in the role and their arguments.
type ptRole struct{ role string }

// PerftestServer is the "perftest_server" module: starts an ib_* server
// in the background on its host and returns at once.
type PerftestServer struct{ ptRole }

// PerftestClient is the "perftest_client" module: runs an ib_* client
// against a server and returns its results.
type PerftestClient struct{ ptRole }

// PerftestCollect is the "perftest_collect" module: waits for an ib_*
// server to end, reads its output and removes it.
type PerftestCollect struct{ ptRole }

// NewPerftestServer returns the perftest_server module.
func NewPerftestServer() *PerftestServer { return &PerftestServer{ptRole{"server"}} }

// NewPerftestClient returns the perftest_client module.
func NewPerftestClient() *PerftestClient { return &PerftestClient{ptRole{"client"}} }

// NewPerftestCollect returns the perftest_collect module.
func NewPerftestCollect() *PerftestCollect { return &PerftestCollect{ptRole{"collect"}} }

// ID returns "perftest_server".
func (*PerftestServer) ID() string { return "perftest_server" }

// ID returns "perftest_client".
func (*PerftestClient) ID() string { return "perftest_client" }

// ID returns "perftest_collect".
func (*PerftestCollect) ID() string { return "perftest_collect" }

func toolSpec() hcldec.Spec { return oneOf(required("tool", cty.String), perftests) }

// Spec describes the server's arguments.
func (*PerftestServer) Spec() hcldec.Spec {
	return &hcldec.ObjectSpec{
		"tool":        toolSpec(),
		"rdma_device": attr("rdma_device", cty.String),
		"block_size":  attr("block_size", cty.String),
		"runtime":     attr("runtime", cty.String),
		"extra_args":  attr("extra_args", cty.List(cty.String)),
	}
}

// Spec describes the client's arguments.
func (*PerftestClient) Spec() hcldec.Spec {
	return &hcldec.ObjectSpec{
		"tool":           toolSpec(),
		"server_address": required("server_address", cty.String),
		"rdma_device":    attr("rdma_device", cty.String),
		"block_size":     attr("block_size", cty.String),
		"runtime":        attr("runtime", cty.String),
		"extra_args":     attr("extra_args", cty.List(cty.String)),
		"cpu_capture":    withDefault(attr("cpu_capture", cty.Bool), argDefaults["cpu_capture"]),
	}
}

// Spec describes the collector's arguments.
func (*PerftestCollect) Spec() hcldec.Spec {
	return &hcldec.ObjectSpec{
		"tool":     toolSpec(),
		"max_wait": withDefault(attr("max_wait", cty.String), argDefaults["max_wait"]),
	}
}

// Outputs are the normalised results (server: its pid).
func (ptRole) Outputs() cty.Type { return outputsType }

// Validate checks durations and sizes.
func (p ptRole) Validate(v cty.Value) hcl.Diagnostics { return validate(v, p.role) }

// Plan: a server starts a process (no change when one is running).
func (p *PerftestServer) Plan(ctx context.Context, req module.PlanRequest) (module.PlanResponse, error) {
	return p.plan(ctx, req)
}

// Plan: collect ends the server and removes its output.
func (p *PerftestCollect) Plan(ctx context.Context, req module.PlanRequest) (module.PlanResponse, error) {
	return p.plan(ctx, req)
}

func (p ptRole) plan(ctx context.Context, req module.PlanRequest) (module.PlanResponse, error) {
	if err := ctx.Err(); err != nil {
		return module.PlanResponse{}, err
	}
	a, err := decodeArgs(req.Args, p.role)
	if err != nil {
		return module.PlanResponse{}, err
	}
	return planServer(ctx, req.Host, a)
}

// Reads implements module.ReadOnly: a client only reads.
func (p *PerftestClient) Reads(v cty.Value) string {
	a, err := decodeArgs(v, p.role)
	if err != nil {
		return "runs a perftest client"
	}
	return "runs " + a.describe()
}

// ApplyOnly implements module.ApplyOnly: a benchmark loads the hosts; plan
// does not run it.
func (*PerftestClient) ApplyOnly() {}

// Apply runs the role.
func (p ptRole) Apply(ctx context.Context, req module.ApplyRequest) (module.ApplyResponse, error) {
	resp := module.ApplyResponse{Outputs: nullOutputs()}
	if err := ctx.Err(); err != nil {
		return resp, err
	}
	a, err := decodeArgs(req.Args, p.role)
	if err != nil {
		return resp, err
	}
	if err := a.check(); err != nil {
		return resp, err
	}
	switch p.role {
	case "server":
		return applyServer(ctx, req, a)
	case "collect":
		return applyCollect(ctx, req, a)
	}
	return applyClient(ctx, req, a)
}

var (
	_ module.Planner   = (*PerftestServer)(nil)
	_ module.ApplyOnly = (*PerftestClient)(nil)
	_ module.Planner   = (*PerftestCollect)(nil)
	_ module.Describer = (*PerftestServer)(nil)
	_ module.Describer = (*PerftestClient)(nil)
	_ module.Describer = (*PerftestCollect)(nil)
)
