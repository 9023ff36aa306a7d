package rdmaports

import (
	"context"
	"fmt"
	"strings"

	"github.com/zclconf/go-cty/cty"

	"github.com/provadev/prova/engine/module"
	"github.com/provadev/prova/modules/internal/gpfscmd"
)

type args struct {
	Require []string `cty:"require"`
}

// NewArgs implements module.Arguments: the struct the arguments decode into.
func (*Ports) NewArgs() any { return new(args) }

type portOut struct {
	Port      int     `cty:"port"`
	State     string  `cty:"state"`
	PhysState string  `cty:"phys_state"`
	Rate      float64 `cty:"rate_gbps"`
	LinkLayer string  `cty:"link_layer"`
	Netdev    string  `cty:"netdev"`
	NetdevUp  bool    `cty:"netdev_up"`
}

type deviceOut struct {
	Name  string    `cty:"name"`
	Ports []portOut `cty:"ports"`
}

type outputs struct {
	HasHCA  bool        `cty:"has_hca"`
	Devices []deviceOut `cty:"devices"`
	Active  []string    `cty:"active_ports"`
	Missing []string    `cty:"missing_ports"`
}

// Reads implements module.ReadOnly.
func (*Ports) Reads(v cty.Value) string {
	s := "reads ibstat and ibdev2netdev"
	if a, err := module.DecodeArgs[args](v); err == nil && len(a.Require) > 0 {
		s += "; requires " + strings.Join(a.Require, " ")
	}
	return s
}

// Apply reads the ports of the host.
func (p *Ports) Apply(ctx context.Context, req module.ApplyRequest) (module.ApplyResponse, error) {
	resp := module.ApplyResponse{Outputs: cty.NullVal(outputsType)}
	a, err := module.Args[args](req)
	if err != nil {
		return resp, err
	}
	st, err := gpfscmd.ReadPorts(ctx, req.Host)
	if err != nil {
		return resp, err
	}
	resp.Evidence = map[string]string{"ibstat": st.IbstatRaw}
	if st.NetdevsRead {
		resp.Evidence["ibdev2netdev"] = st.Ibdev2netdevRaw
	}
	o := outputs{HasHCA: !st.Ibstat.NoDevice, Devices: []deviceOut{}, Active: []string{}, Missing: []string{}}
	for _, ca := range st.Ibstat.CAs {
		d := deviceOut{Name: ca.Name, Ports: []portOut{}}
		for _, pt := range ca.Ports {
			po := portOut{Port: pt.Number, State: pt.State, PhysState: pt.PhysicalState, Rate: pt.Rate, LinkLayer: pt.LinkLayer}
			if m, ok := st.Netdevs.Netdev(ca.Name, pt.Number); ok {
				po.Netdev, po.NetdevUp = m.Netdev, m.Up()
			}
			d.Ports = append(d.Ports, po)
			if pt.Active() && pt.LinkUp() {
				o.Active = append(o.Active, fmt.Sprintf("%s/%d", ca.Name, pt.Number))
			}
		}
		o.Devices = append(o.Devices, d)
	}
	var problems []string
	for _, r := range a.Require {
		if why := st.PortProblem(r); why != "" {
			o.Missing = append(o.Missing, r)
			problems = append(problems, why)
		}
	}
	resp.Outputs, err = module.Encode(o, outputsType)
	if err != nil {
		return resp, err
	}
	switch {
	case !o.HasHCA:
		resp.Message = "no HCA: ibstat lists no device"
	case len(problems) > 0:
		resp.Message = strings.Join(problems, "; ")
	default:
		resp.Message = fmt.Sprintf("%d active port(s): %s", len(o.Active), strings.Join(o.Active, " "))
	}
	if !st.NetdevsRead {
		resp.Message += " (ibdev2netdev not installed: no netdev mapping)"
	}
	for _, r := range a.Require {
		c := module.Check{Name: "port " + r + " on " + req.Host.Name(), Threshold: "Active, LinkUp", Verdict: "pass"}
		c.Measured = st.PortState(r)
		if why := st.PortProblem(r); why != "" {
			c.Verdict, c.Message = "fail", why
		}
		resp.Checks = append(resp.Checks, c)
	}
	return resp, nil
}
