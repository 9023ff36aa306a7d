package gdsgpfs

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/zclconf/go-cty/cty"

	"github.com/provadev/prova/engine/module"
	"github.com/provadev/prova/modules/internal/gpfscmd"
	"github.com/provadev/prova/parse/gpfs"
)

type args struct {
	RDMADevices []string `cty:"rdma_devices"`
}

// NewArgs implements module.Arguments: the struct the arguments decode into.
func (*GPFS) NewArgs() any { return new(args) }

// Reads implements module.ReadOnly.
func (*GPFS) Reads(cty.Value) string {
	return "reads mmlsconfig -Y and mmdiag --config -Y: the GPFS settings of GPUDirect Storage"
}

type result struct {
	Running    bool              `cty:"daemon_running"`
	Settings   map[string]string `cty:"settings"`
	GDS        bool              `cty:"gds_enabled"`
	Rdma       bool              `cty:"verbs_rdma"`
	RdmaSend   bool              `cty:"verbs_rdma_send"`
	MinRelease bool              `cty:"min_release_ok"`
	Ports      []string          `cty:"verbs_ports"`
	Missing    []string          `cty:"ports_missing"`
	Match      bool              `cty:"ports_match"`
	InEffect   bool              `cty:"settings_in_effect"`
}

// attrs are the daemon settings read from mmdiag --config.
var attrs = []string{"verbsGPUDirectStorage", "verbsRdma", "verbsRdmaSend", "verbsPorts", "verbsRdmaCm"}

// Apply reads the settings and judges them.
func (*GPFS) Apply(ctx context.Context, req module.ApplyRequest) (module.ApplyResponse, error) {
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
	diag, diagRaw, running, down, err := gpfscmd.Diag(ctx, h)
	if err != nil {
		return resp, err
	}
	resp.Evidence = map[string]string{"mmlsconfig -Y": cfgRaw, "mmdiag --config -Y": diagRaw}
	r := judge(cfg, diag, running, a.RDMADevices)
	resp.Outputs, err = module.Encode(r, outputsType)
	if err != nil {
		return resp, err
	}
	if !running {
		resp.Message = fmt.Sprintf("GPFS daemon is not running on %s (%s): no GDS setting is in effect", h.Name(), down)
		return resp, nil
	}
	resp.Message = fmt.Sprintf("verbsGPUDirectStorage %s, verbsRdma %s, verbsRdmaSend %s, verbsPorts %q, minReleaseLevel %s",
		r.Settings["verbsGPUDirectStorage"], r.Settings["verbsRdma"], r.Settings["verbsRdmaSend"], r.Settings["verbsPorts"], r.Settings["minReleaseLevel"])
	return resp, nil
}

func judge(cfg *gpfs.Config, diag *gpfs.DiagConfig, running bool, devices []string) result {
	r := result{Running: running, Settings: map[string]string{}, Ports: []string{}, Missing: []string{}}
	for _, e := range cfg.Values("minReleaseLevel") {
		if len(e.Nodes) == 0 {
			r.Settings["minReleaseLevel"] = e.Value
		}
	}
	r.MinRelease = atLeast(r.Settings["minReleaseLevel"], []int{5, 1, 2})
	if running && diag != nil {
		for _, name := range attrs {
			v := ""
			if d, ok := diag.Get(name); ok {
				v = d.Value
			} else if def, ok := gpfscmd.Default(name); ok {
				v = def // not printed: the daemon runs with the default
			} else if name == "verbsGPUDirectStorage" {
				v = "no" // IBM's default; a release without it has no GDS
			}
			r.Settings[name] = v
		}
		r.GDS = gpfscmd.SameValue("verbsGPUDirectStorage", r.Settings["verbsGPUDirectStorage"], "yes")
		r.Rdma = gpfscmd.SameValue("verbsRdma", r.Settings["verbsRdma"], "enable")
		r.RdmaSend = gpfscmd.SameValue("verbsRdmaSend", r.Settings["verbsRdmaSend"], "yes")
		r.Ports = ports(r.Settings["verbsPorts"])
	}
	for _, d := range devices {
		if p := port(d); !slices.Contains(r.Ports, p) {
			r.Missing = append(r.Missing, d)
		}
	}
	r.Match = running && len(devices) > 0 && len(r.Missing) == 0
	r.InEffect = r.GDS && r.Rdma && r.RdmaSend && r.MinRelease
	return r
}

// ports reads verbsPorts ("mlx5_0/1/0 mlx5_1") as device/port entries.
func ports(v string) []string {
	out := []string{}
	for _, f := range strings.Fields(v) {
		if p := port(f); !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	return out
}

// port is device/port of a verbsPorts entry or an rdma_devices entry: a
// missing port is 1 (GPFS's default), a fabric number is dropped.
func port(s string) string {
	parts := strings.Split(strings.TrimSpace(s), "/")
	if len(parts) == 1 || parts[1] == "" {
		return parts[0] + "/1"
	}
	return parts[0] + "/" + parts[1]
}

// atLeast compares a dotted release ("5.1.9.0") with min.
func atLeast(v string, min []int) bool {
	if v == "" {
		return false
	}
	f := strings.Split(v, ".")
	for i, m := range min {
		if i >= len(f) {
			return m == 0
		}
		n, err := strconv.Atoi(f[i])
		if err != nil {
			return false
		}
		if n != m {
			return n > m
		}
	}
	return true
}
