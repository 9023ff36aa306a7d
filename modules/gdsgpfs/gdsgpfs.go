package gdsgpfs

import (
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hcldec"
	"github.com/zclconf/go-cty/cty"

	"github.com/provadev/prova/engine/module"
)

// GPFS is the "gds_gpfs" module. The zero value is ready to use.
type GPFS struct{}

// New returns the gds_gpfs module.
func New() *GPFS { return &GPFS{} }

// ID returns "gds_gpfs".
func (*GPFS) ID() string { return "gds_gpfs" }

// Spec describes the module's arguments.
func (*GPFS) Spec() hcldec.Spec {
	return &hcldec.ObjectSpec{
		"rdma_devices": &hcldec.AttrSpec{Name: "rdma_devices", Type: cty.List(cty.String)},
	}
}

var outputsType = cty.Object(map[string]cty.Type{
	"daemon_running":     cty.Bool,
	"settings":           cty.Map(cty.String),
	"gds_enabled":        cty.Bool,
	"verbs_rdma":         cty.Bool,
	"verbs_rdma_send":    cty.Bool,
	"min_release_ok":     cty.Bool,
	"verbs_ports":        cty.List(cty.String),
	"ports_missing":      cty.List(cty.String),
	"ports_match":        cty.Bool,
	"settings_in_effect": cty.Bool,
})

// Outputs are the settings and what each means for GDS.
func (*GPFS) Outputs() cty.Type { return outputsType }

// Validate has nothing to check across arguments.
func (*GPFS) Validate(cty.Value) hcl.Diagnostics { return nil }

// Doc documents the module.
func (*GPFS) Doc() module.Doc {
	return module.Doc{
		Summary: "Reads the IBM Storage Scale settings GPUDirect Storage needs on a GDS client (verbsGPUDirectStorage, verbsRdma, verbsRdmaSend, minReleaseLevel, verbsPorts against cuFile's RDMA devices) from mmlsconfig -Y and mmdiag --config -Y. Read-only.",
		Args: map[string]string{
			"rdma_devices": "The RDMA ports cuFile uses (device/port, mlx5_0/1): the gdscheck step's rdma_devices. Each must be in verbsPorts (IBM: the addresses of rdma_dev_addr_list must be on devices verbsPorts lists).",
		},
		Outputs: map[string]string{
			"daemon_running":     "False when mmdiag could not reach the daemon: no setting is in effect, every judgement below is false.",
			"settings":           "verbsGPUDirectStorage, verbsRdma, verbsRdmaSend, verbsPorts, verbsRdmaCm as the running daemon uses them (mmdiag --config), and minReleaseLevel (mmlsconfig).",
			"gds_enabled":        "verbsGPUDirectStorage is yes in the running daemon.",
			"verbs_rdma":         "verbsRdma is enable in the running daemon.",
			"verbs_rdma_send":    "verbsRdmaSend is yes in the running daemon.",
			"min_release_ok":     "minReleaseLevel is 5.1.2 or later.",
			"verbs_ports":        "verbsPorts of the running daemon as device/port (a port left out is 1; the fabric number is dropped).",
			"ports_missing":      "Entries of rdma_devices that verbsPorts does not list: GDS I/O through them fails (IBM: an I/O error, logged in mmfs.log).",
			"ports_match":        "rdma_devices is not empty and every entry is in verbsPorts.",
			"settings_in_effect": "gds_enabled, verbs_rdma, verbs_rdma_send and min_release_ok all hold.",
		},
		Example: `step "gdscheck" "gds" {
  hosts      = "gpu"
  filesystem = "gpfs"
}

step "gds_gpfs" "gpfs_gds" {
  hosts        = "gpu"
  rdma_devices = step.gds.rdma_devices
}`,
	}
}

var (
	_ module.Module    = (*GPFS)(nil)
	_ module.Describer = (*GPFS)(nil)
)
