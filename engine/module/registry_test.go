package module

import (
	"context"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hcldec"
	"github.com/zclconf/go-cty/cty"
)

type bare struct{}

func (bare) ID() string                         { return "bare" }
func (bare) Spec() hcldec.Spec                  { return &hcldec.ObjectSpec{} }
func (bare) Outputs() cty.Type                  { return cty.EmptyObject }
func (bare) Validate(cty.Value) hcl.Diagnostics { return nil }
func (bare) Apply(context.Context, ApplyRequest) (ApplyResponse, error) {
	return ApplyResponse{}, nil
}

type planner struct{ bare }

func (planner) Plan(context.Context, PlanRequest) (PlanResponse, error) { return PlanResponse{}, nil }

type reader struct{ bare }

func (reader) Reads(cty.Value) string { return "reads" }

type both struct{ planner }

func (both) Reads(cty.Value) string { return "reads" }

type clusterReader struct{ reader }

func (clusterReader) ApplyCluster(context.Context, ClusterRequest) (map[string]ApplyResponse, error) {
	return nil, nil
}

type clusterMeasure struct{ clusterReader }

func (clusterMeasure) ApplyOnly() {}

// A module is exactly one of Planner and ReadOnly; the registry refuses
// anything else.
func TestCheckKind(t *testing.T) {
	for _, tc := range []struct {
		m    Module
		want string
	}{
		{planner{}, ""},
		{reader{}, ""},
		{clusterMeasure{}, ""},
		{bare{}, "neither a Planner nor ReadOnly"},
		{both{}, "both a Planner and ReadOnly"},
		{clusterReader{}, "not ApplyOnly"},
	} {
		err := CheckKind(tc.m)
		if (err == nil) != (tc.want == "") || err != nil && !strings.Contains(err.Error(), tc.want) {
			t.Errorf("CheckKind(%T) = %v, want %q", tc.m, err, tc.want)
		}
	}
	defer func() {
		if recover() == nil {
			t.Error("Register accepted a module that is neither a Planner nor ReadOnly")
		}
	}()
	NewRegistry().Register(bare{})
}
