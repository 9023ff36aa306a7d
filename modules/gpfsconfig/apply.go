package gpfsconfig

import (
	"context"
	"fmt"
	"strings"

	"github.com/zclconf/go-cty/cty"

	"github.com/provadev/prova/engine/module"
	"github.com/provadev/prova/modules/internal/gpfscmd"
	"github.com/provadev/prova/parse/gpfs"
)

type args struct {
	Attributes  []string `cty:"attributes"`
	NodeClasses []string `cty:"node_classes"`
}

// NewArgs implements module.Arguments: the struct the arguments decode into.
func (*Config) NewArgs() any { return new(args) }

type outputs struct {
	Node       string            `cty:"node"`
	Configured map[string]string `cty:"configured"`
	Effective  map[string]string `cty:"effective"`
	Pending    []string          `cty:"pending"`
	Restart    bool              `cty:"restart_pending"`
	Running    bool              `cty:"daemon_running"`
}

// Reads implements module.ReadOnly.
func (*Config) Reads(v cty.Value) string {
	a, err := module.DecodeArgs[args](v)
	if err != nil {
		return "compares configured and effective GPFS attributes"
	}
	return "compares configured and effective " + strings.Join(a.Attributes, ", ")
}

// Apply reads both sides and compares them.
func (*Config) Apply(ctx context.Context, req module.ApplyRequest) (module.ApplyResponse, error) {
	resp := module.ApplyResponse{Outputs: cty.NullVal(outputsType)}
	a, err := module.Args[args](req)
	if err != nil {
		return resp, err
	}
	h := req.Host
	cfg, cfgRaw, err := gpfscmd.Config(ctx, h)
	if err != nil {
		return resp, err
	}
	node, err := localName(ctx, h, cfg, a.Attributes)
	if err != nil {
		return resp, err
	}
	diag, diagRaw, running, down, err := gpfscmd.Diag(ctx, h)
	if err != nil {
		return resp, err
	}
	resp.Evidence = map[string]string{"mmlsconfig -Y": cfgRaw, "mmdiag --config -Y": diagRaw}
	o := Compare(cfg, diag, node, a.NodeClasses, a.Attributes)
	o.Running = running
	if !running {
		// A daemon that is down has no effective values: whatever is
		// configured is not in effect, so the node counts as pending and
		// the restart step starts it (a node an interrupted restart left
		// down is found this way too).
		o.Pending = append([]string{}, a.Attributes...)
		o.Restart = true
	}
	resp.Outputs, err = module.Encode(o, outputsType)
	if err != nil {
		return resp, err
	}
	check := module.Check{Name: "configuration in effect on " + node, Threshold: "configured = effective", Verdict: "pass"}
	switch {
	case !running:
		resp.Message = fmt.Sprintf("GPFS daemon is not running on %s (%s): no configured value is in effect; restart pending (the restart step starts it)", h.Name(), down)
		check.Measured, check.Verdict, check.Message = "daemon not running", "warn", resp.Message
	case o.Restart:
		var d []string
		for _, p := range o.Pending {
			d = append(d, fmt.Sprintf("%s configured %q, effective %q", p, o.Configured[p], o.Effective[p]))
		}
		resp.Message = "restart pending: " + strings.Join(d, "; ")
		check.Measured, check.Verdict, check.Message = "pending: "+strings.Join(o.Pending, ", "), "warn", resp.Message
	default:
		resp.Message = "configuration in effect: " + strings.Join(a.Attributes, ", ")
		check.Measured = "no attribute pending"
	}
	resp.Checks = []module.Check{check}
	return resp, nil
}

// localName returns the GPFS node name to resolve configured values for.
// mmlscluster is read only when a compared attribute has a node section.
func localName(ctx context.Context, h module.Host, cfg *gpfs.Config, attrs []string) (string, error) {
	sections := false
	for _, attr := range attrs {
		for _, e := range cfg.Values(attr) {
			sections = sections || len(e.Nodes) > 0
		}
	}
	if !sections {
		return h.Name(), nil
	}
	cl, _, err := gpfscmd.Cluster(ctx, h)
	if err != nil {
		return "", err
	}
	n, ok, err := gpfscmd.LocalNode(ctx, h, cl)
	if err != nil || !ok {
		return h.Name(), err
	}
	return n.DaemonName, nil
}

// Compare builds the outputs for node from the configuration and the
// running daemon's values (diag nil: not running).
func Compare(cfg *gpfs.Config, diag *gpfs.DiagConfig, node string, classes, attrs []string) outputs {
	o := outputs{Node: node, Configured: map[string]string{}, Effective: map[string]string{}, Pending: []string{}}
	for _, attr := range attrs {
		v, set := gpfscmd.Configured(cfg, attr, node, classes)
		_, hasDefault := gpfscmd.Default(attr)
		o.Configured[attr] = v
		if diag == nil {
			continue
		}
		eff, ok := diag.Get(attr)
		if !ok && !hasDefault {
			continue
		}
		if !ok { // not printed: the daemon runs with the default
			eff.Value, _ = gpfscmd.Default(attr)
		}
		o.Effective[attr] = eff.Value
		if (set || hasDefault) && !gpfscmd.SameValue(attr, v, eff.Value) {
			o.Pending = append(o.Pending, attr)
		}
	}
	o.Restart = len(o.Pending) > 0
	return o
}
