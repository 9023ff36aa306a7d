package rdmaports

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hcldec"
	"github.com/zclconf/go-cty/cty"

	"github.com/provadev/prova/engine/module"
	"github.com/provadev/prova/modules/internal/gpfscmd"
)

// Ports is the "rdma_ports" module. The zero value is ready to use.
type Ports struct{}

// New returns the rdma_ports module.
func New() *Ports { return &Ports{} }

// ID returns "rdma_ports".
func (*Ports) ID() string { return "rdma_ports" }

// Spec describes the module's arguments.
func (*Ports) Spec() hcldec.Spec {
	return &hcldec.ObjectSpec{
		"require": &hcldec.ValidateSpec{
			Wrapped: &hcldec.AttrSpec{Name: "require", Type: cty.List(cty.String)},
			Func:    validatePorts,
		},
	}
}

var portType = cty.Object(map[string]cty.Type{
	"port": cty.Number, "state": cty.String, "phys_state": cty.String, "rate_gbps": cty.Number,
	"link_layer": cty.String, "netdev": cty.String, "netdev_up": cty.Bool,
})

var deviceType = cty.Object(map[string]cty.Type{"name": cty.String, "ports": cty.List(portType)})

var outputsType = cty.Object(map[string]cty.Type{
	"has_hca":       cty.Bool,
	"devices":       cty.List(deviceType),
	"active_ports":  cty.List(cty.String),
	"missing_ports": cty.List(cty.String),
})

// Outputs are the HCAs, their active ports and the missing required ones.
func (*Ports) Outputs() cty.Type { return outputsType }

// Validate has nothing to check across arguments.
func (*Ports) Validate(cty.Value) hcl.Diagnostics { return nil }

func validatePorts(v cty.Value) hcl.Diagnostics {
	v, _ = v.UnmarkDeep()
	if !v.IsKnown() || v.IsNull() {
		return nil
	}
	var diags hcl.Diagnostics
	for it := v.ElementIterator(); it.Next(); {
		_, e := it.Element()
		if !e.IsKnown() || e.IsNull() {
			continue
		}
		if _, err := gpfscmd.ParsePort(e.AsString()); err != nil {
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid port",
				Detail: fmt.Sprintf("require: %v.", err)})
		}
	}
	return diags
}

// Doc documents the module.
func (*Ports) Doc() module.Doc {
	return module.Doc{
		Summary: "Lists each host's RDMA devices and ports (ibstat, ibdev2netdev) and which required ports are missing or not Active/LinkUp. Read-only.",
		Args: map[string]string{
			"require": "Ports that must exist and be Active with physical state LinkUp, as device/port (\"mlx5_0/1\"; \"mlx5_0\" means port 1). Those that are not are listed in missing_ports.",
		},
		Outputs: map[string]string{
			"has_hca":       "False when ibstat lists no HCA (it prints nothing and exits 0 then).",
			"devices":       "Every HCA: {name, ports = [{port, state, phys_state, rate_gbps, link_layer, netdev, netdev_up}]}. netdev is empty where ibdev2netdev (MLNX_OFED) is missing.",
			"active_ports":  "\"device/port\" of every port that is Active and LinkUp.",
			"missing_ports": "Entries of require that do not exist or are not Active and LinkUp, as written in require.",
		},
		Example: `step "rdma_ports" "ports" {
  hosts   = "gpfs"
  require = var.verbs_ports
}

step "assert" "ports_active" {
  condition     = length(step.ports.missing_ports) == 0
  error_message = "${host.name}: ports not active: ${join(", ", step.ports.missing_ports)}"
}`,
	}
}

var (
	_ module.Module    = (*Ports)(nil)
	_ module.Describer = (*Ports)(nil)
)
