package nvmeconnect

import (
	"context"
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hcldec"
	"github.com/zclconf/go-cty/cty"

	"github.com/provadev/prova/engine/module"
	"github.com/provadev/prova/modules/internal/nvmecmd"
	"github.com/provadev/prova/parse/nvme"
)

// Disconnect is the "nvme_disconnect" module. The zero value is ready to use.
type Disconnect struct{}

// NewDisconnect returns the nvme_disconnect module.
func NewDisconnect() *Disconnect { return &Disconnect{} }

// ID returns "nvme_disconnect".
func (*Disconnect) ID() string { return "nvme_disconnect" }

// Spec describes the module's arguments.
func (*Disconnect) Spec() hcldec.Spec {
	return &hcldec.ObjectSpec{
		"nqn":       nvmecmd.String("nqn", true),
		"transport": nvmecmd.TransportSpec("transport", false),
	}
}

var disconnectOutputs = cty.Object(map[string]cty.Type{"controllers": cty.Number})

// Outputs is the number of controllers disconnected.
func (*Disconnect) Outputs() cty.Type { return disconnectOutputs }

// Validate has nothing to check across arguments.
func (*Disconnect) Validate(cty.Value) hcl.Diagnostics { return nil }

// NewArgs implements module.Arguments: the struct the arguments decode into.
func (*Disconnect) NewArgs() any { return new(disconnectArgs) }

type disconnectArgs struct {
	NQN       string  `cty:"nqn"`
	Transport *string `cty:"transport"`
}

func (a disconnectArgs) transport() string {
	if a.Transport == nil {
		return ""
	}
	return *a.Transport
}

func (a disconnectArgs) what() string {
	if t := a.transport(); t != "" {
		return a.NQN + " (" + t + " controllers)"
	}
	return a.NQN
}

// Plan reads list-subsys: a change only when the subsystem is connected.
func (*Disconnect) Plan(ctx context.Context, req module.PlanRequest) (module.PlanResponse, error) {
	a, err := module.Args[disconnectArgs](req)
	if err != nil {
		return module.PlanResponse{}, err
	}
	st, err := nvmecmd.ReadState(ctx, req.Host)
	if err != nil {
		return module.PlanResponse{}, err
	}
	return disconnectPlan(a, st), nil
}

func disconnectPlan(a disconnectArgs, st *nvmecmd.State) module.PlanResponse {
	ps := st.Paths(a.NQN, a.transport())
	if len(ps) == 0 {
		return module.PlanResponse{Action: module.NoOp, Summary: a.what() + " not connected"}
	}
	return module.PlanResponse{Action: module.Change,
		Summary: fmt.Sprintf("disconnect %s (%s)", a.what(), describe(ps)),
		Changes: []module.AttrChange{{Name: a.NQN, From: fmt.Sprintf("%d controller(s)", len(ps)), To: "disconnected"}}}
}

// Apply disconnects when connected: "nvme disconnect -n NQN", or "nvme
// disconnect -d nvmeN" per controller of the transport. Success is judged
// by the controller count nvme-cli reports and by list-subsys afterwards,
// not by the exit status.
func (*Disconnect) Apply(ctx context.Context, req module.ApplyRequest) (module.ApplyResponse, error) {
	resp := module.ApplyResponse{Outputs: cty.NullVal(disconnectOutputs)}
	a, err := module.Args[disconnectArgs](req)
	if err != nil {
		return resp, err
	}
	h := req.Host
	st, err := nvmecmd.ReadState(ctx, h)
	if err != nil {
		return resp, err
	}
	resp.Evidence = map[string]string{}
	merge(resp.Evidence, st.Evidence, "")
	ps := st.Paths(a.NQN, a.transport())
	if len(ps) == 0 {
		resp.Outputs = cty.ObjectVal(map[string]cty.Value{"controllers": cty.NumberIntVal(0)})
		resp.Message = a.what() + " not connected"
		return resp, nil
	}
	n, failure, err := disconnect(ctx, h, a, ps, &resp)
	if err != nil {
		return resp, err
	}
	resp.Changed = n > 0
	resp.Outputs = cty.ObjectVal(map[string]cty.Value{"controllers": cty.NumberIntVal(int64(n))})
	after, err := nvmecmd.ReadState(ctx, h)
	if err != nil {
		return resp, err
	}
	merge(resp.Evidence, after.Evidence, "after disconnect: ")
	left := after.Paths(a.NQN, a.transport())
	switch {
	case failure != "":
		resp.Failed, resp.Message = true, failure
	case len(left) > 0:
		resp.Failed = true
		resp.Message = fmt.Sprintf("%s still connected on %s after disconnecting %d controller(s): %s", a.what(), h.Name(), n, describe(left))
	default:
		resp.Message = fmt.Sprintf("disconnected %s: %d controller(s)", a.what(), n)
	}
	return resp, nil
}

// disconnect runs nvme disconnect and returns how many controllers went
// away, or why it failed.
func disconnect(ctx context.Context, h module.Host, a disconnectArgs, ps []nvmecmd.Path, resp *module.ApplyResponse) (int, string, error) {
	if a.transport() == "" {
		argv := []string{"disconnect", "-n", a.NQN}
		out, err := nvmecmd.Run(ctx, h, argv...)
		if err != nil {
			return 0, "", err
		}
		resp.RC, resp.Stdout, resp.Stderr = out.RC, out.Stdout, out.Stderr
		resp.Evidence[module.Command(append([]string{"nvme"}, argv...)...)] = out.Stdout + out.Stderr
		d, perr := nvme.ParseDisconnect([]byte(out.Stdout))
		if perr != nil {
			if f := nvmecmd.Classify(out); f != nil {
				return 0, fmt.Sprintf("disconnect %s failed: %v", a.NQN, nvmecmd.Failed(h, "nvme disconnect", f)), nil
			}
			return 0, "", nvmecmd.ParseFailed(h, perr)
		}
		if d.Controllers < 1 {
			return 0, fmt.Sprintf("nvme disconnect on %s disconnected 0 controllers of %s, but list-subsys showed %d (%s)",
				h.Name(), a.NQN, len(ps), names(ps)), nil
		}
		return d.Controllers, "", nil
	}
	n := 0
	for _, p := range ps {
		argv := []string{"disconnect", "-d", p.Controller}
		out, err := nvmecmd.Run(ctx, h, argv...)
		if err != nil {
			return n, "", err
		}
		resp.RC, resp.Stdout, resp.Stderr = out.RC, out.Stdout, out.Stderr
		resp.Evidence[module.Command(append([]string{"nvme"}, argv...)...)] = out.Stdout + out.Stderr
		if f := nvmecmd.Classify(out); f != nil {
			return n, fmt.Sprintf("disconnect %s failed: %v", p.Controller, nvmecmd.Failed(h, "nvme disconnect", f)), nil
		}
		n++
	}
	return n, "", nil
}

// Doc documents the module.
func (*Disconnect) Doc() module.Doc {
	return module.Doc{
		Summary: "Disconnects an NVMe-oF subsystem (all its controllers, or only those over one transport) when list-subsys shows it connected. Judged by the controller count nvme-cli reports and list-subsys afterwards, not by the exit status.",
		Args: map[string]string{
			"nqn":       "Subsystem NQN (required).",
			"transport": "Only disconnect the controllers over this transport (\"rdma\" or \"tcp\"), one by one with nvme disconnect -d.",
		},
		Outputs: map[string]string{
			"controllers": "Number of controllers disconnected (0 when nothing was connected).",
		},
		Example: `step "nvme_disconnect" "cleanup" {
  hosts      = var.initiator
  nqn        = var.nqn
  on_failure = "continue"
}`,
	}
}

var (
	_ module.Module    = (*Disconnect)(nil)
	_ module.Describer = (*Disconnect)(nil)
)
