package verbsstatus

import (
	"context"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hcldec"
	"github.com/zclconf/go-cty/cty"

	"github.com/provadev/prova/engine/module"
	"github.com/provadev/prova/modules/internal/gpfscmd"
	"github.com/provadev/prova/parse/gpfs"
)

// Status is the "verbs_status" module. The zero value is ready to use.
type Status struct{}

// New returns the verbs_status module.
func New() *Status { return &Status{} }

// ID returns "verbs_status".
func (*Status) ID() string { return "verbs_status" }

// Spec: the module takes no arguments.
func (*Status) Spec() hcldec.Spec { return &hcldec.ObjectSpec{} }

var outputsType = cty.Object(map[string]cty.Type{"started": cty.Bool, "status": cty.String})

// Outputs: started, and the status word as printed.
func (*Status) Outputs() cty.Type { return outputsType }

// Validate has nothing to check.
func (*Status) Validate(cty.Value) hcl.Diagnostics { return nil }

// Doc documents the module.
func (*Status) Doc() module.Doc {
	return module.Doc{
		Summary: "Says whether the GPFS daemon started RDMA on each node (mmfsadm test verbs status). Read-only.",
		Args:    map[string]string{},
		Outputs: map[string]string{
			"started": "True when the status is \"started\".",
			"status":  "The status word as printed (started, disabled, ...); \"\" when mmfsadm could not reach the daemon.",
		},
		Example: `step "verbs_status" "verbs" {
  hosts = "gpfs"
}

step "assert" "verbs_started" {
  condition     = step.verbs.started
  error_message = "${host.name}: VERBS RDMA is ${step.verbs.status}"
}`,
	}
}

// Reads implements module.ReadOnly.
func (*Status) Reads(cty.Value) string { return "reads mmfsadm test verbs status" }

// Apply reads the status. mmfsadm failing (daemon down) is started =
// false with the reason in the message, not an error.
func (*Status) Apply(ctx context.Context, req module.ApplyRequest) (module.ApplyResponse, error) {
	resp := module.ApplyResponse{Outputs: cty.NullVal(outputsType)}
	out, err := gpfscmd.Probe(ctx, req.Host, gpfscmd.MM("mmfsadm", "test", "verbs", "status"))
	resp.RC, resp.Stdout, resp.Stderr = out.RC, out.Stdout, out.Stderr
	if err != nil {
		return resp, err
	}
	if gpfscmd.NotInstalled(out) {
		return resp, gpfscmd.Failure(req.Host, "mmfsadm", out)
	}
	st := &gpfs.VerbsStatus{}
	if out.RC != 0 {
		resp.Message = "mmfsadm could not read the verbs status: " + gpfscmd.LastLine(out)
	} else {
		if st, err = gpfs.ParseVerbsStatus([]byte(out.Stdout)); err != nil {
			return resp, gpfscmd.ParseFailure(req.Host, err)
		}
		resp.Message = "VERBS RDMA " + st.Status
	}
	resp.Evidence = map[string]string{"mmfsadm test verbs status": out.Stdout + out.Stderr}
	c := module.Check{Name: "VERBS RDMA started on " + req.Host.Name(), Measured: st.Status, Threshold: "started", Verdict: "pass"}
	if !st.Started {
		c.Verdict, c.Message = "fail", resp.Message
	}
	resp.Checks = []module.Check{c}
	resp.Outputs = cty.ObjectVal(map[string]cty.Value{"started": cty.BoolVal(st.Started), "status": cty.StringVal(st.Status)})
	return resp, nil
}

var (
	_ module.Module    = (*Status)(nil)
	_ module.Describer = (*Status)(nil)
)
