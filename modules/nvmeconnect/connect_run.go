package nvmeconnect

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/zclconf/go-cty/cty"

	"github.com/provadev/prova/engine/module"
	"github.com/provadev/prova/modules/internal/nvmecmd"
	"github.com/provadev/prova/parse/nvme"
)

func itoa(n int) string { return strconv.Itoa(n) }

// Plan reads list-subsys and says whether the subsystem must be connected.
func (*Connect) Plan(ctx context.Context, req module.PlanRequest) (module.PlanResponse, error) {
	a, err := module.Args[connectArgs](req)
	if err != nil {
		return module.PlanResponse{}, err
	}
	st, err := nvmecmd.ReadState(ctx, req.Host)
	if err != nil {
		return module.PlanResponse{}, err
	}
	return connectPlan(a, st), nil
}

func connectPlan(a connectArgs, st *nvmecmd.State) module.PlanResponse {
	if ps := st.Connected(a.NQN, a.target()); len(ps) > 0 {
		return module.PlanResponse{Action: module.NoOp,
			Summary: fmt.Sprintf("%s already connected over %s (%s)", a.NQN, a.target(), names(ps))}
	}
	p := module.PlanResponse{Action: module.Change, Summary: fmt.Sprintf("connect %s over %s", a.NQN, a.target()),
		Changes: []module.AttrChange{{Name: a.NQN + " " + a.Transport, From: "not connected", To: "connected to " + a.Address}}}
	if t := st.Transport(a.NQN); t != "" {
		p.Summary += " (already connected over " + t + ")"
	}
	if st.NoDriver {
		p.Summary += " (nvme driver not loaded)"
	}
	return p
}

func names(ps []nvmecmd.Path) string {
	var n []string
	for _, p := range ps {
		n = append(n, p.Controller)
	}
	return strings.Join(n, ", ")
}

type connectOut struct {
	Devices   []string       `cty:"devices"`
	Device    string         `cty:"device"`
	Transport string         `cty:"transport"`
	Paths     []nvmecmd.Path `cty:"paths"`
}

// Apply connects when needed, then reads list-subsys and list to report
// what the host really has. Already connected is not a failure; a path over
// the requested transport missing afterwards is.
func (*Connect) Apply(ctx context.Context, req module.ApplyRequest) (module.ApplyResponse, error) {
	resp := module.ApplyResponse{Outputs: cty.NullVal(connectOutputs)}
	a, err := module.Args[connectArgs](req)
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
	if connectPlan(a, st).Action == module.Change {
		out, err := nvmecmd.Run(ctx, h, a.argv()...)
		if err != nil {
			return resp, err
		}
		resp.RC, resp.Stdout, resp.Stderr = out.RC, out.Stdout, out.Stderr
		resp.Evidence[module.Command(append([]string{"nvme"}, a.argv()...)...)] = out.Stdout + out.Stderr
		if f := nvmecmd.Classify(out); f != nil && f.Kind != nvme.AlreadyConnected {
			resp.Failed = true
			resp.Message = fmt.Sprintf("connect %s over %s failed: %v", a.NQN, a.target(), nvmecmd.Failed(h, "nvme connect", f))
			return resp, nil
		}
		resp.Changed = true
		if st, err = nvmecmd.ReadState(ctx, h); err != nil {
			return resp, err
		}
	}
	devs, err := st.Devices(ctx, h, a.NQN)
	if err != nil {
		return resp, err
	}
	prefix := ""
	if resp.Changed {
		prefix = "after connect: "
	}
	merge(resp.Evidence, st.Evidence, prefix)
	o := connectOut{Devices: devs, Transport: st.Transport(a.NQN), Paths: st.Paths(a.NQN, "")}
	if len(devs) > 0 {
		o.Device = devs[0]
	}
	if resp.Outputs, err = module.Encode(o, connectOutputs); err != nil {
		return resp, err
	}
	switch ps := st.Connected(a.NQN, a.target()); {
	case len(ps) == 0:
		resp.Failed = true
		resp.Message = fmt.Sprintf("nvme connect reported success but list-subsys on %s shows no path to %s over %s (paths: %s)",
			h.Name(), a.NQN, a.target(), describe(o.Paths))
	case len(devs) == 0:
		resp.Message = fmt.Sprintf("%s connected over %s (%s) but no block device yet", a.NQN, a.target(), names(ps))
	default:
		resp.Message = fmt.Sprintf("%s connected over %s: %s (paths over %s)", a.NQN, a.target(), strings.Join(devs, ", "), o.Transport)
	}
	return resp, nil
}

func describe(ps []nvmecmd.Path) string {
	if len(ps) == 0 {
		return "none"
	}
	var s []string
	for _, p := range ps {
		d := fmt.Sprintf("%s %s %s:%s", p.Controller, p.Transport, p.Traddr, p.Trsvcid)
		if p.State != "" {
			d += " " + p.State
		}
		s = append(s, d)
	}
	return strings.Join(s, "; ")
}

func merge(dst, src map[string]string, prefix string) {
	for k, v := range src {
		dst[prefix+k] = v
	}
}
