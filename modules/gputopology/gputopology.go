package gputopology

import (
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hcldec"
	"github.com/zclconf/go-cty/cty"

	"github.com/provadev/prova/engine/module"
)

// Topology is the "gpu_topology" module. The zero value is ready to use.
type Topology struct{}

// New returns the gpu_topology module.
func New() *Topology { return &Topology{} }

// ID returns "gpu_topology".
func (*Topology) ID() string { return "gpu_topology" }

// Spec describes the module's arguments.
func (*Topology) Spec() hcldec.Spec {
	return &hcldec.ObjectSpec{
		"nics": &hcldec.ValidateSpec{
			Wrapped: &hcldec.AttrSpec{Name: "nics", Type: cty.List(cty.String)},
			Func:    validateNICs,
		},
		"acs": module.WithDefault("acs", cty.Bool, cty.False),
	}
}

var nearType = cty.Object(map[string]cty.Type{"gpu": cty.String, "nic": cty.String, "relation": cty.String})

var outputsType = cty.Object(map[string]cty.Type{
	"has_gpu":      cty.Bool,
	"matrix":       cty.Map(cty.Map(cty.String)),
	"nearest":      cty.List(nearType),
	"all_near":     cty.Bool,
	"far":          cty.List(cty.String),
	"no_nic":       cty.List(cty.String),
	"missing_nics": cty.List(cty.String),
	"acs_checked":  cty.Bool,
	"acs_blocked":  cty.List(cty.String),
	"acs_unknown":  cty.String,
})

// Outputs are the matrix and the GPU-to-NIC verdicts.
func (*Topology) Outputs() cty.Type { return outputsType }

// Validate has nothing to check across arguments.
func (*Topology) Validate(cty.Value) hcl.Diagnostics { return nil }

func validateNICs(v cty.Value) hcl.Diagnostics {
	v, _ = v.UnmarkDeep()
	if !v.IsKnown() || v.IsNull() {
		return nil
	}
	for it := v.ElementIterator(); it.Next(); {
		_, e := it.Element()
		if e.IsKnown() && (e.IsNull() || strings.TrimSpace(e.AsString()) == "") {
			return hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Empty NIC name",
				Detail: "nics lists RDMA devices (\"mlx5_0\") or ports (\"mlx5_0/1\"); an entry is empty."}}
		}
	}
	return nil
}

// Doc documents the module.
func (*Topology) Doc() module.Doc {
	return module.Doc{
		Summary: "Reads nvidia-smi topo -m: the PCIe/NVLink matrix, each GPU's nearest RDMA NIC and whether every GPU shares a PCIe switch with one (PIX/PXB). Read-only.",
		Args: map[string]string{
			"acs":  "Also check ACS on the PCIe switch ports between each GPU and its nearest NIC when they share a switch (PIX/PXB): lspci -vvv -D (as root) and ibdev2netdev -v. Default false.",
			"nics": "RDMA devices to consider, as device (\"mlx5_0\") or device/port (\"mlx5_0/1\", the port is ignored): e.g. the ports the storage traffic uses. Default: every NIC in the matrix.",
		},
		Outputs: map[string]string{
			"has_gpu":      "False when nvidia-smi is missing or reports no GPU or driver; the other outputs are then empty.",
			"matrix":       "Relations by row and column device (GPU0, mlx5_0 ...; NICn columns renamed from the NIC Legend): X, PIX, PXB, PHB, NODE, SYS or NV#.",
			"nearest":      "Per GPU its nearest considered NIC: [{gpu, nic, relation}], ties to the NIC printed first.",
			"all_near":     "True when there is a GPU and every GPU's nearest considered NIC is PIX or PXB (same PCIe switch).",
			"far":          "GPUs whose nearest considered NIC is PHB, NODE or SYS (anything but PIX/PXB): peer-to-peer traffic crosses the CPU's host bridge, the host bridges or the NUMA interconnect.",
			"no_nic":       "GPUs with no considered NIC in the matrix at all.",
			"missing_nics": "Entries of nics that the matrix does not show.",
			"acs_checked":  "True when acs is set and lspci and ibdev2netdev -v could be read.",
			"acs_blocked":  "GPU-NIC pairs on one PCIe switch whose path has a port with ACS redirecting peer-to-peer traffic to the root complex (ACSCtl ReqRedir+ or CmpltRedir+), with the ports: PIX on paper, through the CPU in practice.",
			"acs_unknown":  "Why ACS could not be checked (lspci without root, no ibdev2netdev); \"\" otherwise.",
		},
		Example: `step "gpu_topology" "topo" {
  hosts = "gpu_clients"
  nics  = ["mlx5_0", "mlx5_1"]
}

step "assert" "gpu_near_nic" {
  severity      = "warn"
  condition     = step.topo.all_near
  error_message = "${host.name}: GPUs far from an RDMA NIC: ${join(", ", step.topo.far)}"
}`,
	}
}

var (
	_ module.Module    = (*Topology)(nil)
	_ module.Describer = (*Topology)(nil)
)
