package gpfsrestart

import (
	"fmt"
	"strings"
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
	DefaultEstimate = "2m"
	DefaultFinish   = "5m"
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
		"max_wait":         str("max_wait", DefaultMaxWait),
		"interval":         str("interval", DefaultInterval),
		"quorum_nodes":     &hcldec.AttrSpec{Name: "quorum_nodes", Type: cty.List(cty.String)},
		"batch":            str("batch", DefaultBatch),
		"restart_estimate": str("restart_estimate", DefaultEstimate),
		"marker":           str("marker", DefaultMarker),
		"finish_timeout":   str("finish_timeout", DefaultFinish),
	}
}

var outputsType = cty.Object(map[string]cty.Type{
	"restarted": cty.List(cty.String),
	"states":    cty.Map(cty.String),
	"pending":   cty.List(cty.String),
	"waves":     cty.List(cty.List(cty.String)),
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
	if b := args.GetAttr("batch"); b.IsKnown() && !b.IsNull() {
		if _, err := batchSize(b.AsString(), 1); err != nil {
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid batch", Detail: err.Error() + "."})
		}
	}
	if m := args.GetAttr("marker"); m.IsKnown() && !m.IsNull() && !strings.HasPrefix(m.AsString(), "/") {
		diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid marker", Detail: fmt.Sprintf("marker must be an absolute path on the node running the restarts, got %q.", m.AsString())})
	}
	for _, name := range []string{"max_wait", "interval", "restart_estimate", "finish_timeout"} {
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
		Summary: "Restarts GPFS daemons so pending configuration takes effect: rolling, in waves that keep the file system up (never two servers of one NSD down, never more quorum nodes down than keep quorum, other nodes in batches, each wave only after the one before is active and mounted), or the whole cluster. Starts first the nodes an interrupted run left down. Run it with run_once.",
		Args: map[string]string{
			"mode":             "\"rolling\" (default): in waves with mmshutdown/mmstartup -N LIST; plain nodes (neither quorum, manager nor NSD server, per mmlscluster and mmlsnsd) first in batches, then NSD servers, managers and quorum nodes in waves that never hold two servers of one NSD nor more quorum nodes than keep quorum (a majority, or one at a time with tiebreakerDisks); each wave starts when the previous one is active (mmgetstate) and has its file systems mounted again (mmlsmount all -L). \"cluster\": mmshutdown -a then mmstartup -a (an outage), then wait for every node.",
			"batch":            "Plain nodes restarted at once: a number (20) or a share of them (\"10%\", the default; at least 1). Also bounds the other waves.",
			"restart_estimate": "Expected time per wave, for the plan's estimated duration (default \"2m\").",
			"marker":           "File on the node running the restarts naming the wave in flight (default " + DefaultMarker + "): written before mmshutdown, removed when the wave is back. After a kill, the next run starts those nodes first.",
			"finish_timeout":   "On Ctrl-C during a wave, how long to wait for its nodes to come back before stopping (default \"5m\"); the marker stays if they do not.",
			"nodes":            "Nodes to restart (GPFS daemon or admin names, short or long, or IPs; inventory names that match them). Empty: nothing to do. In cluster mode any non-empty list restarts every node.",
			"max_wait":         "How long to wait for a node (cluster mode: all nodes) to become active, default \"10m\"; then the step fails naming the nodes not active. (The step meta-argument timeout bounds the whole step.)",
			"interval":         "Pause between mmgetstate polls, default \"5s\".",
			"quorum_nodes":     "Quorum nodes; default: the nodes mmlscluster designates quorum.",
		},
		Outputs: map[string]string{
			"restarted": "Nodes restarted and active again, in order (nodes an interrupted run left down first).",
			"pending":   "Nodes planned but not restarted (the rollout stopped); gpfs_config still finds them pending next run.",
			"waves":     "The rolling waves, as planned.",
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
