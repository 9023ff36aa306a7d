package mmchconfig

import (
	"fmt"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hcldec"
	"github.com/zclconf/go-cty/cty"

	"github.com/provadev/prova/engine/module"
	"github.com/provadev/prova/internal/lazyre"
	"github.com/provadev/prova/modules/internal/gpfscmd"
)

// Mmchconfig is the "mmchconfig" module. The zero value is ready to use.
type Mmchconfig struct{}

// New returns the mmchconfig module.
func New() *Mmchconfig { return &Mmchconfig{} }

// ID returns "mmchconfig".
func (*Mmchconfig) ID() string { return "mmchconfig" }

// DefaultMaxFraction is the default of pagepool_max_fraction.
const DefaultMaxFraction = 0.5

// Spec describes the module's arguments.
func (*Mmchconfig) Spec() hcldec.Spec {
	return &hcldec.ObjectSpec{
		"attributes": &hcldec.AttrSpec{Name: "attributes", Type: cty.Map(cty.String), Required: true},
		"nodes":      &hcldec.AttrSpec{Name: "nodes", Type: cty.String},
		"pagepool_max_fraction": &hcldec.DefaultSpec{
			Primary: &hcldec.AttrSpec{Name: "pagepool_max_fraction", Type: cty.Number},
			Default: &hcldec.LiteralSpec{Value: cty.NumberFloatVal(DefaultMaxFraction)},
		},
		"immediate": &hcldec.DefaultSpec{
			Primary: &hcldec.AttrSpec{Name: "immediate", Type: cty.Bool},
			Default: &hcldec.LiteralSpec{Value: cty.False},
		},
	}
}

var outputsType = cty.Object(map[string]cty.Type{
	"changed_attributes": cty.List(cty.String),
	"restart_required":   cty.Bool,
})

// Outputs: the attributes changed and whether any needs a daemon restart.
func (*Mmchconfig) Outputs() cty.Type { return outputsType }

var attrName = lazyre.New(`^[A-Za-z][A-Za-z0-9_.]*$`)

// Validate checks attribute names and values, the pagepool size, the
// fraction and the node list, where they are known.
func (*Mmchconfig) Validate(args cty.Value) hcl.Diagnostics {
	args, _ = args.UnmarkDeep()
	var diags hcl.Diagnostics
	bad := func(summary, detail string) {
		diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: summary, Detail: detail})
	}
	if attrs := args.GetAttr("attributes"); attrs.IsKnown() && !attrs.IsNull() {
		if attrs.LengthInt() == 0 {
			bad("No attributes", "attributes must name at least one GPFS configuration attribute.")
		}
		for it := attrs.ElementIterator(); it.Next(); {
			k, v := it.Element()
			name := k.AsString()
			if !attrName.MatchString(name) {
				bad("Invalid attribute name", fmt.Sprintf("%q is not a GPFS attribute name.", name))
			}
			if !v.IsKnown() || v.IsNull() {
				continue
			}
			val := v.AsString()
			switch {
			case strings.TrimSpace(val) == "":
				bad("Empty attribute value", fmt.Sprintf("%s has an empty value; use \"DEFAULT\" to restore the default.", name))
			case strings.ContainsAny(val, ",\n"):
				bad("Invalid attribute value", fmt.Sprintf("%s = %q: mmchconfig separates attributes with commas, so a value cannot contain one.", name, val))
			case strings.EqualFold(name, "pagepool") && !strings.EqualFold(val, "DEFAULT"):
				if _, err := gpfscmd.ParseSize(val); err != nil {
					bad("Invalid pagepool", fmt.Sprintf("pagepool: %v.", err))
				}
			}
		}
	}
	if f := args.GetAttr("pagepool_max_fraction"); f.IsKnown() && !f.IsNull() {
		x, _ := f.AsBigFloat().Float64()
		if x <= 0 || x > 1 {
			bad("Invalid pagepool_max_fraction", fmt.Sprintf("pagepool_max_fraction must be above 0 and at most 1, got %g.", x))
		}
	}
	if n := args.GetAttr("nodes"); n.IsKnown() && !n.IsNull() {
		if s := n.AsString(); strings.TrimSpace(s) == "" || strings.ContainsAny(s, " \t") {
			bad("Invalid nodes", fmt.Sprintf("nodes must be a node list \"a,b\" or a node class, without spaces; got %q.", s))
		}
	}
	return diags
}

// restartPrefixes and restartAttrs name the attributes that take effect
// only when the daemon restarts (lowercase).
var (
	restartPrefixes = []string{"verbs"}
	restartAttrs    = map[string]bool{
		"pagepool": true, "maxfilestocache": true, "maxstatcache": true, "maxblocksize": true,
		"nsdbufspace": true, "workerthreads": true, "worker1threads": true, "maxreceiverthreads": true,
		"nsdmaxworkerthreads": true, "nsdminworkerthreads": true, "prefetchthreads": true,
		"tsctcpport": true, "subnets": true, "numamemoryinterleave": true, "tscworkerpool": true,
	}
)

// RestartRequired reports whether a change of attr takes effect only after
// the daemon restarts: every verbs* attribute, pagepool, the cache and
// thread sizes, tscTcpPort, subnets and numaMemoryInterleave.
func RestartRequired(attr string) bool {
	a := strings.ToLower(attr)
	for _, p := range restartPrefixes {
		if strings.HasPrefix(a, p) {
			return true
		}
	}
	return restartAttrs[a]
}

// RestartAttributes lists RestartRequired's attributes for documentation.
func RestartAttributes() []string {
	out := []string{"verbs*"}
	for a := range restartAttrs {
		out = append(out, a)
	}
	sort.Strings(out[1:])
	return out
}

// Doc documents the module.
func (*Mmchconfig) Doc() module.Doc {
	return module.Doc{
		Summary: "Sets GPFS configuration attributes with one mmchconfig, changing only those whose configured value differs; refuses a pagepool too large for the host's memory before changing anything. Run it with run_once on an admin node.",
		Args: map[string]string{
			"attributes":            "Map of attribute to value, e.g. { verbsRdma = \"enable\", verbsPorts = \"mlx5_0/1 mlx5_1/1\", pagepool = \"16G\" }. Values may contain spaces but not commas.",
			"nodes":                 "mmchconfig -N: a node list \"gpfs01,gpfs02\" or a node class. Unset: the whole cluster. Current values are read for these nodes (their own section, else the cluster-wide value).",
			"pagepool_max_fraction": "Largest share of the host's MemTotal (/proc/meminfo) pagepool may take, default 0.5. Checked in plan and apply before anything changes.",
			"immediate":             "Pass -i (change takes effect immediately where GPFS allows it, and is permanent). Default false.",
		},
		Outputs: map[string]string{
			"changed_attributes": "Attributes that were changed, sorted.",
			"restart_required":   "True when a changed attribute takes effect only after a daemon restart (verbs*, pagepool, cache and thread sizes, tscTcpPort, subnets; see docs/modules/mmchconfig.md). gpfs_config's restart_pending is the authority per node.",
		},
		Example: `step "mmchconfig" "rdma" {
  run_once = true
  hosts    = var.admin_node
  attributes = {
    verbsRdma  = "enable"
    verbsPorts = local.verbs_ports
    pagepool   = var.pagepool
  }
}`,
	}
}

var (
	_ module.Module    = (*Mmchconfig)(nil)
	_ module.Describer = (*Mmchconfig)(nil)
)
