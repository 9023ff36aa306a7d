package cephmessenger

import (
	"context"
	"fmt"
	"strings"

	"github.com/zclconf/go-cty/cty"

	"github.com/provadev/prova/engine/module"
)

type args struct {
	Path          string            `cty:"path"`
	Source        string            `cty:"source"`
	Who           string            `cty:"who"`
	Planned       map[string]string `cty:"planned_settings"`
	Waive         bool              `cty:"waive"`
	Justification *string           `cty:"justification"`
}

// NewArgs implements module.Arguments: the struct the arguments decode into.
func (*Messenger) NewArgs() any { return new(args) }

// Reads implements module.ReadOnly: it says where the settings will be
// read from; plan runs the check itself.
func (*Messenger) Reads(v cty.Value) string {
	a, err := module.DecodeArgs[args](v)
	if err != nil {
		return "reads the Ceph messenger settings"
	}
	return "reads " + a.from()
}

func (a args) from() string {
	switch a.Source {
	case "config":
		return "ceph config get " + a.Who + " " + strings.Join(Keys, ", ")
	case "none":
		return "planned_settings only"
	}
	return a.Path
}

type result struct {
	Found         bool     `cty:"found"`
	MsType        *string  `cty:"ms_type"`
	MsClusterType *string  `cty:"ms_cluster_type"`
	MsPublicType  *string  `cty:"ms_public_type"`
	RDMA          bool     `cty:"rdma"`
	Findings      []string `cty:"findings"`
	Waived        bool     `cty:"waived"`
	Reason        string   `cty:"reason"`
}

// Apply reads the settings and applies the guard.
func (*Messenger) Apply(ctx context.Context, req module.ApplyRequest) (module.ApplyResponse, error) {
	resp := module.ApplyResponse{Outputs: cty.NullVal(outputsType)}
	a, err := module.Args[args](req)
	if err != nil {
		return resp, err
	}
	r := result{Findings: []string{}}
	var eff map[string]string
	switch a.Source {
	case "none":
	case "config":
		m, err := configGet(ctx, req.Host, a.Who)
		if err != nil {
			return resp, err
		}
		for _, f := range ScanSettings(m) {
			r.Findings = append(r.Findings, "[config "+a.Who+"] "+f)
		}
		r.Found, eff = true, withDefaults(m)
	default:
		out, err := module.Capture(ctx, req.Host, module.Command("cat", "--", a.Path))
		resp.RC, resp.Stderr = out.RC, out.Stderr
		if err != nil {
			return resp, err
		}
		switch {
		case out.RC == 0:
			conf, err := ParseConf(out.Stdout)
			if err != nil {
				return resp, fmt.Errorf("%s on %s: %w", a.Path, req.Host.Name(), err)
			}
			r.Found, eff = true, conf.Effective(a.Who)
			r.Findings = append(r.Findings, conf.RDMAFindings()...)
			resp.Evidence = map[string]string{a.Path: out.Stdout}
		case strings.Contains(out.Stderr, "No such file or directory"):
			eff = withDefaults(map[string]string{})
		default:
			return resp, fmt.Errorf("read %s on %s: cat exited %d: %s", a.Path, req.Host.Name(), out.RC, strings.TrimSpace(out.Stderr))
		}
	}
	if eff != nil {
		r.MsType, r.MsClusterType, r.MsPublicType = ptr(eff["ms_type"]), ptr(eff["ms_cluster_type"]), ptr(eff["ms_public_type"])
	}
	for _, f := range ScanSettings(a.Planned) {
		r.Findings = append(r.Findings, "planned "+f)
	}
	r.RDMA = len(r.Findings) > 0
	check := module.Check{Name: "Ceph messenger is not async+rdma", Threshold: "not " + RDMA, Verdict: "pass",
		Measured: measured(r, eff)}
	switch {
	case r.RDMA && a.Waive:
		r.Waived = true
		r.Reason = "async+rdma found (" + strings.Join(r.Findings, "; ") + ") and waived: " + *a.Justification
		resp.Message = "WARNING: Ceph RDMA messenger waived: " + *a.Justification + " (" + strings.Join(r.Findings, "; ") + "). " + Reason
		check.Verdict, check.Message = "waived", *a.Justification
	case r.RDMA:
		r.Reason = "async+rdma found (" + strings.Join(r.Findings, "; ") + "). " + Reason
		resp.Failed, resp.Message = true, r.Reason
		check.Verdict, check.Message = "fail", r.Reason
	default:
		resp.Message = check.Measured
	}
	resp.Checks = []module.Check{check}
	resp.Outputs, err = module.Encode(r, outputsType)
	return resp, err
}

func measured(r result, eff map[string]string) string {
	if eff == nil {
		return "planned: " + strings.Join(r.Findings, "; ")
	}
	s := fmt.Sprintf("ms_type %s, cluster %s, public %s", eff["ms_type"], eff["ms_cluster_type"], eff["ms_public_type"])
	if !r.Found {
		s += " (no ceph.conf: defaults)"
	}
	return s
}

// configGet asks the monitors' configuration database for each setting;
// an empty answer means unset.
func configGet(ctx context.Context, h module.Host, who string) (map[string]string, error) {
	m := map[string]string{}
	for _, k := range Keys {
		out, err := module.Capture(ctx, h, module.Command("ceph", "config", "get", who, k))
		if err != nil {
			return nil, err
		}
		if out.RC != 0 {
			return nil, fmt.Errorf("ceph config get %s %s on %s exited %d: %s", who, k, h.Name(), out.RC, strings.TrimSpace(out.Stderr))
		}
		m[k] = strings.TrimSpace(out.Stdout)
	}
	return m, nil
}

func ptr(s string) *string { return &s }
