package ofed

import (
	"context"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hcldec"
	"github.com/zclconf/go-cty/cty"

	"github.com/provadev/prova/engine/module"
	"github.com/provadev/prova/modules/internal/gpfscmd"
	parseofed "github.com/provadev/prova/parse/ofed"
)

// OFED is the "ofed" module. The zero value is ready to use.
type OFED struct{}

// New returns the ofed module.
func New() *OFED { return &OFED{} }

// ID returns "ofed".
func (*OFED) ID() string { return "ofed" }

// Spec: the module takes no arguments.
func (*OFED) Spec() hcldec.Spec { return &hcldec.ObjectSpec{} }

var outputsType = cty.Object(map[string]cty.Type{
	"installed": cty.Bool,
	"version":   cty.String,
	"release":   cty.String,
})

// Outputs: installed, version ("23.10-1.1.9.0") and release (as printed,
// "MLNX_OFED_LINUX-23.10-1.1.9.0").
func (*OFED) Outputs() cty.Type { return outputsType }

// Validate has nothing to check.
func (*OFED) Validate(cty.Value) hcl.Diagnostics { return nil }

// Command is what the module runs.
const Command = "ofed_info -s"

// Doc documents the module.
func (*OFED) Doc() module.Doc {
	return module.Doc{
		Summary: "Reads the MLNX_OFED version of each host (ofed_info -s). Read-only; compare hosts with an assert over per_host.",
		Args:    map[string]string{},
		Outputs: map[string]string{
			"installed": "False where ofed_info does not exist (inbox rdma-core) or prints nothing.",
			"version":   "The version without its package prefix, e.g. \"23.10-1.1.9.0\"; \"\" when not installed.",
			"release":   "The version line as printed, without its trailing colon, e.g. \"MLNX_OFED_LINUX-23.10-1.1.9.0\".",
		},
		Example: `step "ofed" "ofed" {
  hosts = "gpfs"
}

step "assert" "same_ofed" {
  run_once      = true
  condition     = length(distinct([for h, r in per_host.ofed : r.version])) == 1
  error_message = "OFED differs: ${jsonencode({ for h, r in per_host.ofed : h => r.version })}"
}`,
	}
}

// Reads implements module.ReadOnly.
func (*OFED) Reads(cty.Value) string { return "reads " + Command }

// Apply reads the version.
func (*OFED) Apply(ctx context.Context, req module.ApplyRequest) (module.ApplyResponse, error) {
	resp := module.ApplyResponse{Outputs: cty.NullVal(outputsType)}
	out, err := gpfscmd.Probe(ctx, req.Host, Command)
	if err != nil {
		return resp, err
	}
	resp.RC, resp.Stdout, resp.Stderr = out.RC, out.Stdout, out.Stderr
	res := &parseofed.Result{NotInstalled: true}
	switch {
	case gpfscmd.NotInstalled(out):
		res.Message = gpfscmd.LastLine(out)
	case out.RC != 0:
		return resp, gpfscmd.Failure(req.Host, "ofed_info", out)
	default:
		if res, err = parseofed.Parse([]byte(out.Stdout)); err != nil {
			return resp, gpfscmd.ParseFailure(req.Host, err)
		}
		resp.Evidence = map[string]string{Command: out.Stdout}
	}
	release := ""
	if !res.NotInstalled {
		release = res.Version
		if res.Package != "" {
			release = res.Package + "-" + res.Version
		}
		resp.Message = "OFED " + res.Version
	} else {
		resp.Message = "OFED not installed: " + res.Message
	}
	resp.Outputs = cty.ObjectVal(map[string]cty.Value{
		"installed": cty.BoolVal(!res.NotInstalled),
		"version":   cty.StringVal(res.Version),
		"release":   cty.StringVal(release),
	})
	return resp, nil
}

var (
	_ module.Module    = (*OFED)(nil)
	_ module.Describer = (*OFED)(nil)
)
