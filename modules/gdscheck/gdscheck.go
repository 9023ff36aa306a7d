package gdscheck

import (
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hcldec"
	"github.com/zclconf/go-cty/cty"

	"github.com/provadev/prova/engine/module"
)

// DefaultPath is where the CUDA toolkit installs gdscheck.
const DefaultPath = "/usr/local/cuda/gds/tools/gdscheck"

// DefaultCufile is where cuFile reads its configuration.
const DefaultCufile = "/etc/cufile.json"

// Check is the "gdscheck" module. The zero value is ready to use.
type Check struct{}

// New returns the gdscheck module.
func New() *Check { return &Check{} }

// ID returns "gdscheck".
func (*Check) ID() string { return "gdscheck" }

// Spec describes the module's arguments.
func (*Check) Spec() hcldec.Spec {
	return &hcldec.ObjectSpec{
		"path": &hcldec.DefaultSpec{
			Primary: module.NonEmpty(&hcldec.AttrSpec{Name: "path", Type: cty.String}),
			Default: &hcldec.LiteralSpec{Value: cty.StringVal(DefaultPath)},
		},
		"filesystem": module.NonEmpty(&hcldec.AttrSpec{Name: "filesystem", Type: cty.String}),
		"cufile_path": &hcldec.DefaultSpec{
			Primary: module.NonEmpty(&hcldec.AttrSpec{Name: "cufile_path", Type: cty.String}),
			Default: &hcldec.LiteralSpec{Value: cty.StringVal(DefaultCufile)},
		},
	}
}

var fsType = cty.Object(map[string]cty.Type{"supported": cty.Bool, "capabilities": cty.List(cty.String), "value": cty.String})

var gpuType = cty.Object(map[string]cty.Type{"index": cty.Number, "name": cty.String, "supported": cty.Bool})

var outputsType = cty.Object(map[string]cty.Type{
	"installed":          cty.Bool,
	"gds_version":        cty.String,
	"nvidia_fs_version":  cty.String,
	"nvidia_fs_loaded":   cty.Bool,
	"libcufile_version":  cty.String,
	"filesystems":        cty.Map(fsType),
	"fs_supported":       cty.Bool,
	"rdma":               cty.List(cty.String),
	"rdma_ready":         cty.Bool,
	"gpus":               cty.List(gpuType),
	"has_gpu":            cty.Bool,
	"iommu_enabled":      cty.Bool,
	"iommu":              cty.String,
	"data_path":          cty.String,
	"data_path_reasons":  cty.List(cty.String),
	"compat_forced":      cty.Bool,
	"compat_allowed":     cty.Bool,
	"rdma_dev_addr_list": cty.List(cty.String),
	"rdma_devices":       cty.List(cty.String),
	"rdma_addr_unmapped": cty.List(cty.String),
	"gpus_without_gds":   cty.List(cty.Number),
	"platform_verified":  cty.Bool,
	"warnings":           cty.List(cty.String),
})

// Outputs are what gdscheck -p reported.
func (*Check) Outputs() cty.Type { return outputsType }

// Validate has nothing to check across arguments.
func (*Check) Validate(cty.Value) hcl.Diagnostics { return nil }

// Doc documents the module.
func (*Check) Doc() module.Doc {
	return module.Doc{
		Summary: "Runs NVIDIA GPUDirect Storage's gdscheck -p and returns its versions, per-file-system support, RDMA state, GPUs, IOMMU state and platform verification; the raw output is kept as evidence. Read-only.",
		Args: map[string]string{
			"path":        "gdscheck to run (default " + DefaultPath + ").",
			"filesystem":  "File system whose support fs_supported reports: a name as gdscheck prints it or gpfs, weka, vast (NFS), lustre, beegfs; cephfs is never supported.",
			"cufile_path": "cuFile's configuration file to read (default " + DefaultCufile + "; cuFile reads the file CUFILE_ENV_PATH_JSON names instead when set).",
		},
		Outputs: map[string]string{
			"installed":          "False when gdscheck is not found (GDS not installed); every other output is then null or empty.",
			"gds_version":        "GDS release version, e.g. 1.16.0.49.",
			"nvidia_fs_version":  "Version of the loaded nvidia_fs kernel module; null when gdscheck names none (module not loaded).",
			"nvidia_fs_loaded":   "True when gdscheck printed an nvidia_fs version.",
			"libcufile_version":  "cuFile library version; null when not printed (1.16+ prints the nvidia_fs minimum version instead).",
			"filesystems":        "DRIVER CONFIGURATION entries by name as printed (\"IBM Spectrum Scale\"): {supported, capabilities, value}. Supported means \"Supported\" or a capability list with nvfs or dmabuf; compat alone is the POSIX fallback through host memory.",
			"fs_supported":       "Whether filesystem is supported; false when gdscheck does not list it (CephFS); null without filesystem.",
			"rdma":               "The RDMA lines of DRIVER CONFIGURATION as \"name: value\" (\"Mellanox PeerDirect: Enabled\", \"rdma library: Loaded (libcufile_rdma.so)\").",
			"rdma_ready":         "True when the cuFile RDMA library is loaded, its devices are configured and at least one is up.",
			"gpus":               "GPU INFO: [{index, name, supported}] where supported means \"supports GDS\".",
			"has_gpu":            "False when gdscheck reports no GPU (\"No GPU found in the system\").",
			"iommu_enabled":      "True when PLATFORM INFO's IOMMU line says anything but disabled; null when gdscheck printed no IOMMU line (unknown, never read as disabled).",
			"iommu":              "disabled, passthrough (IOMMU on with iommu=pt on the kernel command line), enabled, or unknown (no IOMMU line).",
			"data_path":          "The path cuFile gives filesystem's I/O on this node: native (nvidia_fs), p2pdma, rdma (a distributed file system), compat (POSIX I/O through host memory) or unknown.",
			"data_path_reasons":  "Why: each rule of NVIDIA's compatibility-mode table that applies, or what makes the path direct.",
			"compat_forced":      "cufile.json's properties.force_compat_mode; null when not set or not read.",
			"compat_allowed":     "cufile.json's properties.allow_compat_mode (a file that cannot use GDS falls back silently); null when not set or not read.",
			"rdma_dev_addr_list": "The RDMA addresses cufile.json gives filesystem (its fs section's list, else properties.rdma_dev_addr_list).",
			"rdma_devices":       "The RDMA ports (device/port, mlx5_0/1) that hold the addresses of rdma_dev_addr_list: the NICs cuFile will use, from ip -o addr show and ibdev2netdev. Empty when the list is.",
			"rdma_addr_unmapped": "Addresses of rdma_dev_addr_list on no RDMA port's netdev, each with the reason (\"10.0.0.9: on no interface\", \"10.0.0.9: on eth0, not an RDMA netdev\").",
			"gpus_without_gds":   "Indexes of the GPUs gdscheck does not report as \"supports GDS\".",
			"platform_verified":  "True when gdscheck printed \"Platform verification succeeded\".",
			"warnings":           "warn:/WARN: lines (a log file that could not be opened, the IOMMU warning).",
		},
		Example: `step "gdscheck" "gds" {
  hosts      = "gpu_clients"
  filesystem = "gpfs"
}

step "assert" "gds_ready" {
  condition     = step.gds.installed && step.gds.nvidia_fs_loaded && !step.gds.iommu_enabled && step.gds.fs_supported
  error_message = "${host.name}: GDS not ready (nvidia_fs ${coalesce(step.gds.nvidia_fs_version, "not loaded")}, IOMMU enabled ${step.gds.iommu_enabled})"
}`,
	}
}

var (
	_ module.Module    = (*Check)(nil)
	_ module.Describer = (*Check)(nil)
)
