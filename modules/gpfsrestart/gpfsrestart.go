package gpfsrestart

import (
	"fmt"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hcldec"
	"github.com/zclconf/go-cty/cty"

	"github.com/provadev/prova/engine/module"
)

// Restart is the "gpfs_restart" module. The zero value is ready to use.
type Restart struct{}

// New returns the gpfs_restart module.
func New() *Restart { return &Restart{} }

// ID returns "gpfs_restart".
func (*Restart) ID() string { return "gpfs_restart" }

// Modes and defaults.
const (
	ModeRolling     = "rolling"
	ModeCluster     = "cluster"
	DefaultMaxWait  = "10m"
	DefaultInterval = "5s"
)

// Spec describes the module's arguments.
func (*Restart) Spec() hcldec.Spec {
	str := func(name, def string) hcldec.Spec {
		return &hcldec.DefaultSpec{Primary: &hcldec.AttrSpec{Name: name, Type: cty.String}, Default: &hcldec.LiteralSpec{Value: cty.StringVal(def)}}
	}
	return &hcldec.ObjectSpec{
		"mode": str("mode", ModeRolling),
		"nodes": &hcldec.DefaultSpec{
			Primary: &hcldec.AttrSpec{Name: "nodes", Type: cty.List(cty.String)},
			Default: &hcldec.LiteralSpec{Value: cty.ListValEmpty(cty.String)},
		},
		"max_wait":     str("max_wait", DefaultMaxWait),
		"interval":     str("interval", DefaultInterval),
		"quorum_nodes": &hcldec.AttrSpec{Name: "quorum_nodes", Type: cty.List(cty.String)},
	}
}

var outputsType = cty.Object(map[string]cty.Type{
	"restarted": cty.List(cty.String),
	"states":    cty.Map(cty.String),
})

// Outputs: the nodes restarted and the last state seen of each.
func (*Restart) Outputs() cty.Type { return outputsType }

// Validate checks the mode and the durations, where known.
func (*Restart) Validate(args cty.Value) hcl.Diagnostics {
	args, _ = args.UnmarkDeep()
	var diags hcl.Diagnostics
	if m := args.GetAttr("mode"); m.IsKnown() && !m.IsNull() && m.AsString() != ModeRolling && m.AsString() != ModeCluster {
		diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid mode",
			Detail: fmt.Sprintf("mode must be %q (node by node) or %q (mmshutdown -a, mmstartup -a), got %q.", ModeRolling, ModeCluster, m.AsString())})
	}
	for _, name := range []string{"max_wait", "interval"} {
		v := args.GetAttr(name)
		if !v.IsKnown() || v.IsNull() {
			continue
		}
		if d, err := time.ParseDuration(v.AsString()); err != nil || d <= 0 {
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid duration",
				Detail: fmt.Sprintf("%s must be a positive duration such as \"5s\" or \"10m\", got %q.", name, v.AsString())})
		}
	}
	return diags
}

// Doc documents the module.
func (*Restart) Doc() module.Doc {
	return module.Doc{
		Summary: "Restarts GPFS daemons, rolling (one node at a time, never more than one quorum node down, waiting for active) or the whole cluster, so pending configuration takes effect. Run it with run_once.",
		Args: map[string]string{
			"mode":         "\"rolling\" (default): node by node with mmshutdown/mmstartup -N, non-quorum nodes first, waiting for mmgetstate -N NODE -Y to show active before the next. \"cluster\": mmshutdown -a then mmstartup -a (an outage), then wait for every node.",
			"nodes":        "Nodes to restart (GPFS daemon or admin names, short or long, or IPs; inventory names that match them). Empty: nothing to do. In cluster mode any non-empty list restarts every node.",
			"max_wait":     "How long to wait for a node (cluster mode: all nodes) to become active, default \"10m\"; then the step fails naming the nodes not active. (The step meta-argument timeout bounds the whole step.)",
			"interval":     "Pause between mmgetstate polls, default \"5s\".",
			"quorum_nodes": "Quorum nodes; default: the nodes mmlscluster designates quorum.",
		},
		Outputs: map[string]string{
			"restarted": "Nodes restarted and active again, in order.",
			"states":    "Node -> last GPFS state seen (active, arbitrating, down, ...).",
		},
		Example: `step "gpfs_restart" "restart" {
  run_once = true
  mode     = var.restart_mode
  nodes    = [for h, r in per_host.config : h if r.restart_pending]
  max_wait = "10m"
}`,
	}
}

var (
	_ module.Module    = (*Restart)(nil)
	_ module.Describer = (*Restart)(nil)
)
