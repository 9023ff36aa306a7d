package module

import (
	"context"
	"fmt"

	"github.com/zclconf/go-cty/cty"
)

// CallPlan calls p.Plan unless ctx has already ended. The engine and the
// conformance suite call modules through CallPlan and CallApply, so a module
// does not begin each method with its own ctx.Err check; it only has to
// pass ctx to every command it runs.
func CallPlan(ctx context.Context, p Planner, req PlanRequest) (PlanResponse, error) {
	if err := ctx.Err(); err != nil {
		return PlanResponse{}, err
	}
	return p.Plan(ctx, req)
}

// CallApply calls m.Apply unless ctx has already ended.
func CallApply(ctx context.Context, m Module, req ApplyRequest) (ApplyResponse, error) {
	if err := ctx.Err(); err != nil {
		return ApplyResponse{Outputs: cty.NullVal(m.Outputs())}, err
	}
	return m.Apply(ctx, req)
}

// DecodeArgs decodes wholly-known args into a new T, a struct with
// `cty:"name"` tags matching the module's spec (see Arguments).
func DecodeArgs[T any](args cty.Value) (*T, error) {
	out := new(T)
	if err := Decode(args, out); err != nil {
		return nil, err
	}
	return out, nil
}

// Describe returns the plan summary the engine shows for a step of module m
// with args: Reads for a ReadOnly module, else the module ID.
func Describe(m Module, args cty.Value) string {
	if ro, ok := m.(ReadOnly); ok && args.IsWhollyKnown() {
		return ro.Reads(args)
	}
	return fmt.Sprintf("runs %s", m.ID())
}
