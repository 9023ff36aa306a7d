package gdsread

import (
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hcldec"
	"github.com/zclconf/go-cty/cty"

	"github.com/provadev/prova/engine/module"
)

// Defaults of the arguments.
const (
	DefaultGdsio = "/usr/local/cuda/gds/tools/gdsio"
	DefaultStats = "/proc/driver/nvidia-fs/stats"
	DefaultSize  = "64M"
)

// Read is the "gds_read" module. The zero value is ready to use.
type Read struct{}

// New returns the gds_read module.
func New() *Read { return &Read{} }

// ID returns "gds_read".
func (*Read) ID() string { return "gds_read" }

// Spec describes the module's arguments.
func (*Read) Spec() hcldec.Spec {
	return &hcldec.ObjectSpec{
		"file":       &hcldec.AttrSpec{Name: "file", Type: cty.String, Required: true},
		"gpu":        module.WithDefault("gpu", cty.Number, cty.NumberIntVal(0)),
		"size":       module.WithDefault("size", cty.String, cty.StringVal(DefaultSize)),
		"gdsio_path": module.WithDefault("gdsio_path", cty.String, cty.StringVal(DefaultGdsio)),
		"stats_path": module.WithDefault("stats_path", cty.String, cty.StringVal(DefaultStats)),
	}
}

var outputsType = cty.Object(map[string]cty.Type{
	"mode":             cty.String,
	"reasons":          cty.List(cty.String),
	"io_stats":         cty.Bool,
	"gdsio_mib":        cty.Number,
	"nvfs_read_mib":    cty.Number,
	"nvfs_reads":       cty.Number,
	"throughput_gib_s": cty.Number,
	"xfer_type":        cty.String,
})

// Outputs are the mode the read took and the counters behind it.
func (*Read) Outputs() cty.Type { return outputsType }

// Validate has nothing to check across arguments.
func (*Read) Validate(cty.Value) hcl.Diagnostics { return nil }

// Doc documents the module.
func (*Read) Doc() module.Doc {
	return module.Doc{
		Summary: "Reads a file on a mount into a GPU with gdsio and compares nvidia-fs's counters before and after: evidence that the bytes went GPU-direct, or that cuFile used compatibility mode. Read-only.",
		Args: map[string]string{
			"file":       "A file on the mount to read (it must exist and be at least size long), e.g. /gpfs/fs0/gds-check/64M.bin.",
			"gpu":        "GPU index to read into (gdsio -d), default 0.",
			"size":       "How much to read (gdsio -s), default 64M, in 1 MiB I/Os by one thread.",
			"gdsio_path": "gdsio, default " + DefaultGdsio + ".",
			"stats_path": "nvidia-fs's counters, default " + DefaultStats + ".",
		},
		Outputs: map[string]string{
			"mode":             "gpu_direct (nvidia-fs counted at least 90% of the MiB gdsio read), compat (IO stats on, nvidia-fs counted less: the bytes went through host memory), unknown (no counters: nvidia_fs not loaded or IO stats off) or failed (gdsio failed).",
			"reasons":          "Why, with the figures.",
			"io_stats":         "nvidia-fs prints IO stats (rw_stats_enabled=1); without them Reads carries no byte count.",
			"gdsio_mib":        "MiB gdsio reports it read.",
			"nvfs_read_mib":    "readMiB nvidia-fs counted during the read (after minus before).",
			"nvfs_reads":       "Reads n nvidia-fs counted during the read.",
			"throughput_gib_s": "gdsio's throughput.",
			"xfer_type":        "gdsio's XferType (what it asked for: GPUD), not the path cuFile took.",
		},
		Example: `step "gds_read" "read" {
  hosts = "gpu"
  file  = "/gpfs/fs0/gds-check/64M.bin"
}

step "assert" "gpu_direct" {
  hosts = "gpu"
  check {
    name          = "bytes went GPU-direct"
    condition     = step.read.mode == "gpu_direct"
    error_message = "${host.name}: ${join("; ", step.read.reasons)}"
  }
}`,
	}
}

var (
	_ module.Module    = (*Read)(nil)
	_ module.Describer = (*Read)(nil)
)
