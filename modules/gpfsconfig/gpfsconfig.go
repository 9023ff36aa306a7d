package gpfsconfig

import (
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hcldec"
	"github.com/zclconf/go-cty/cty"

	"github.com/provadev/prova/engine/module"
)

// Config is the "gpfs_config" module. The zero value is ready to use.
type Config struct{}

// New returns the gpfs_config module.
func New() *Config { return &Config{} }

// ID returns "gpfs_config".
func (*Config) ID() string { return "gpfs_config" }

// DefaultAttributes are compared when the step names none.
var DefaultAttributes = []string{"verbsRdma", "verbsPorts", "verbsRdmaSend", "pagepool"}

// Spec describes the module's arguments.
func (*Config) Spec() hcldec.Spec {
	def := make([]cty.Value, len(DefaultAttributes))
	for i, a := range DefaultAttributes {
		def[i] = cty.StringVal(a)
	}
	return &hcldec.ObjectSpec{
		"attributes": &hcldec.DefaultSpec{
			Primary: &hcldec.AttrSpec{Name: "attributes", Type: cty.List(cty.String)},
			Default: &hcldec.LiteralSpec{Value: cty.ListVal(def)},
		},
		"node_classes": &hcldec.AttrSpec{Name: "node_classes", Type: cty.List(cty.String)},
	}
}

var outputsType = cty.Object(map[string]cty.Type{
	"node":            cty.String,
	"configured":      cty.Map(cty.String),
	"effective":       cty.Map(cty.String),
	"pending":         cty.List(cty.String),
	"restart_pending": cty.Bool,
	"daemon_running":  cty.Bool,
})

// Outputs: configured and effective values, and what is pending.
func (*Config) Outputs() cty.Type { return outputsType }

// Validate checks that attributes is not empty when known.
func (*Config) Validate(args cty.Value) hcl.Diagnostics {
	args, _ = args.UnmarkDeep()
	if a := args.GetAttr("attributes"); a.IsKnown() && !a.IsNull() && a.LengthInt() == 0 {
		return hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "No attributes",
			Detail: "attributes must name at least one GPFS attribute to compare; remove it to use the default list."}}
	}
	return nil
}

// Doc documents the module.
func (*Config) Doc() module.Doc {
	return module.Doc{
		Summary: "Compares each node's configured GPFS values (mmlsconfig -Y) with the running daemon's (mmdiag --config -Y) and lists the attributes waiting for a restart. Read-only.",
		Args: map[string]string{
			"attributes":   "Attributes to compare, default [\"verbsRdma\", \"verbsPorts\", \"verbsRdmaSend\", \"pagepool\"].",
			"node_classes": "Node classes this node belongs to, so values set for a class ([nsdNodes] sections) are resolved. Without it, a class section is not taken as this node's.",
		},
		Outputs: map[string]string{
			"node":            "The GPFS node name the configured values were resolved for (the inventory name when no section names a node).",
			"configured":      "Attribute -> configured value for this node; an unset verbsRdma, verbsRdmaSend or verbsPorts shows its default (disable, no, \"\"), other unset attributes \"\".",
			"effective":       "Attribute -> value the running daemon uses (mmdiag --config; the default for verbsRdma, verbsRdmaSend and verbsPorts when mmdiag does not print them); empty when the daemon is not running.",
			"pending":         "Attributes whose configured value differs from the effective one (sizes compare as bytes: 4G = 4294967296); every compared attribute when the daemon is down.",
			"restart_pending": "True when pending is not empty: the daemon must restart (or, when it is down, start) for the configuration to take effect.",
			"daemon_running":  "False when mmdiag could not reach the daemon.",
		},
		Example: `step "gpfs_config" "config" {
  hosts = "gpfs"
}

step "gpfs_restart" "restart" {
  run_once = true
  nodes    = [for h, r in per_host.config : h if r.restart_pending]
}`,
	}
}

var (
	_ module.Module    = (*Config)(nil)
	_ module.Describer = (*Config)(nil)
)
