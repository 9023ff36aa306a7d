package gdscheck

import (
	"cmp"
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/zclconf/go-cty/cty"

	"github.com/provadev/prova/engine/module"
	"github.com/provadev/prova/parse/gds"
)

type args struct {
	Path       string  `cty:"path"`
	Filesystem *string `cty:"filesystem"`
	CufilePath string  `cty:"cufile_path"`
}

// NewArgs implements module.Arguments: the struct the arguments decode into.
func (*Check) NewArgs() any { return new(args) }

// Reads implements module.ReadOnly.
func (*Check) Reads(v cty.Value) string {
	a, err := module.DecodeArgs[args](v)
	if err != nil {
		return "reads gdscheck -p"
	}
	return "reads " + a.Path + " -p"
}

// Apply runs gdscheck -p and returns what it reported.
func (c *Check) Apply(ctx context.Context, req module.ApplyRequest) (module.ApplyResponse, error) {
	resp := module.ApplyResponse{Outputs: cty.NullVal(outputsType)}
	a, err := module.Args[args](req)
	if err != nil {
		return resp, err
	}
	out, err := module.Capture(ctx, req.Host, module.Command(a.Path, "-p"))
	resp.RC, resp.Stdout, resp.Stderr = out.RC, out.Stdout, out.Stderr
	if err != nil {
		return resp, err
	}
	check, err := gds.ParseRun([]byte(out.Stdout), []byte(out.Stderr), out.RC)
	if err != nil {
		return resp, fmt.Errorf("gdscheck on %s: %w", req.Host.Name(), err)
	}
	if !check.NotInstalled {
		raw := out.Stdout
		if out.Stderr != "" {
			raw = out.Stderr + raw
		}
		resp.Evidence = map[string]string{"gdscheck -p": raw}
	}
	o := outputs(check, a.Filesystem)
	if !check.NotInstalled {
		cf, cfErr, err := readCufile(ctx, req.Host, a.CufilePath, resp.Evidence)
		if err != nil {
			return resp, err
		}
		cmd, err := module.Capture(ctx, req.Host, "cat /proc/cmdline")
		if err != nil {
			return resp, err
		}
		judge(&o, check, cf, cfErr, a.Filesystem, cmd.Stdout)
		if len(o.RDMADevAddrList) > 0 {
			o.RDMADevices, o.RDMAAddrUnmapped, err = mapAddresses(ctx, req.Host, o.RDMADevAddrList, resp.Evidence)
			if err != nil {
				return resp, err
			}
		}
	}
	resp.Outputs, err = module.Encode(o, outputsType)
	if err != nil {
		return resp, err
	}
	resp.Message = summary(check, o, a)
	return resp, nil
}

type fsOut struct {
	Supported    bool     `cty:"supported"`
	Capabilities []string `cty:"capabilities"`
	Value        string   `cty:"value"`
}

type gpuOut struct {
	Index     int    `cty:"index"`
	Name      string `cty:"name"`
	Supported bool   `cty:"supported"`
}

type result struct {
	Installed        bool             `cty:"installed"`
	GDSVersion       *string          `cty:"gds_version"`
	NvidiaFSVersion  *string          `cty:"nvidia_fs_version"`
	NvidiaFSLoaded   bool             `cty:"nvidia_fs_loaded"`
	LibcufileVersion *string          `cty:"libcufile_version"`
	Filesystems      map[string]fsOut `cty:"filesystems"`
	FSSupported      *bool            `cty:"fs_supported"`
	RDMA             []string         `cty:"rdma"`
	RDMAReady        bool             `cty:"rdma_ready"`
	GPUs             []gpuOut         `cty:"gpus"`
	HasGPU           bool             `cty:"has_gpu"`
	IOMMUEnabled     *bool            `cty:"iommu_enabled"`
	IOMMU            string           `cty:"iommu"`
	DataPath         string           `cty:"data_path"`
	DataPathReasons  []string         `cty:"data_path_reasons"`
	CompatForced     *bool            `cty:"compat_forced"`
	CompatAllowed    *bool            `cty:"compat_allowed"`
	RDMADevAddrList  []string         `cty:"rdma_dev_addr_list"`
	RDMADevices      []string         `cty:"rdma_devices"`
	RDMAAddrUnmapped []string         `cty:"rdma_addr_unmapped"`
	GPUsWithoutGDS   []int            `cty:"gpus_without_gds"`
	PlatformVerified bool             `cty:"platform_verified"`
	Warnings         []string         `cty:"warnings"`
}

// fsAliases are names a runbook may give for file systems gdscheck lists
// under another name (gds.Check.Driver knows gpfs, weka and lustre).
var fsAliases = map[string]string{"vast": "NFS", "wekafs": "WekaFS", "exascaler": "DDN EXAScaler"}

func outputs(c *gds.Check, fs *string) result {
	r := result{Installed: !c.NotInstalled, Filesystems: map[string]fsOut{}, RDMA: []string{}, GPUs: []gpuOut{}, Warnings: []string{},
		IOMMU: "unknown", DataPath: pathUnkown, DataPathReasons: []string{}, RDMADevAddrList: []string{}, GPUsWithoutGDS: []int{},
		RDMADevices: []string{}, RDMAAddrUnmapped: []string{}}
	if c.NotInstalled {
		return r
	}
	r.GDSVersion = optional(c.GDSVersion)
	r.NvidiaFSVersion = optional(c.NvidiaFSVersion)
	r.NvidiaFSLoaded = c.NvidiaFSVersion != ""
	r.LibcufileVersion = optional(c.LibcufileVersion)
	for _, d := range c.Drivers {
		caps := append([]string{}, d.Capabilities...)
		r.Filesystems[d.Name] = fsOut{Supported: d.Supported, Capabilities: caps, Value: d.Value}
	}
	if fs != nil {
		name := *fs
		if alias, ok := fsAliases[strings.ToLower(name)]; ok {
			name = alias
		}
		d, ok := c.Driver(name)
		supported := ok && d.Supported
		r.FSSupported = &supported
	}
	r.RDMA = rdmaLines(c.RDMA)
	r.RDMAReady = c.RDMA.LibraryLoaded && c.RDMA.DevicesConfigured && c.RDMA.Up != nil && *c.RDMA.Up > 0
	for _, g := range c.GPUs {
		r.GPUs = append(r.GPUs, gpuOut{Index: g.Index, Name: g.Name, Supported: g.SupportsGDS})
	}
	r.HasGPU = !c.NoGPU && len(c.GPUs) > 0
	if c.IOMMU != "" {
		en := c.IOMMUEnabled
		r.IOMMUEnabled = &en
	}
	r.PlatformVerified = c.PlatformVerified
	r.Warnings = append(r.Warnings, c.Warnings...)
	for _, sec := range c.Other {
		if w, ok := sec["WARN"]; ok {
			r.Warnings = append(r.Warnings, w)
		}
	}
	return r
}

func rdmaLines(r gds.RDMA) []string {
	var out []string
	add := func(name, v string) {
		if v != "" {
			out = append(out, name+": "+v)
		}
	}
	add("Mellanox PeerDirect", r.PeerDirect)
	add("DmaBuf support", r.DmaBuf)
	add("rdma library", r.Library)
	add("rdma devices", r.Devices)
	if r.Up != nil && r.Down != nil {
		out = append(out, fmt.Sprintf("rdma_device_status: Up: %d Down: %d", *r.Up, *r.Down))
	}
	for _, k := range sortedKeys(r.Options) {
		add(k, r.Options[k])
	}
	if out == nil {
		return []string{}
	}
	return out
}

func summary(c *gds.Check, r result, a args) string {
	if c.NotInstalled {
		return a.Path + " not found: GPUDirect Storage is not installed"
	}
	parts := []string{"GDS " + c.GDSVersion}
	if r.NvidiaFSLoaded {
		parts = append(parts, "nvidia_fs "+c.NvidiaFSVersion)
	} else {
		parts = append(parts, "nvidia_fs not loaded")
	}
	parts = append(parts, "IOMMU "+r.IOMMU, "data path "+r.DataPath)
	if a.Filesystem != nil {
		if *r.FSSupported {
			parts = append(parts, *a.Filesystem+" supported")
		} else {
			parts = append(parts, *a.Filesystem+" not supported")
		}
	}
	if r.HasGPU {
		parts = append(parts, fmt.Sprintf("%d GPU(s)", len(r.GPUs)))
	} else {
		parts = append(parts, "no GPU")
	}
	return strings.Join(parts, ", ")
}

// readCufile reads cuFile's configuration; a file that is missing or
// unreadable is not an error (cfErr says why), one that does not parse is.
func readCufile(ctx context.Context, h module.Host, path string, ev map[string]string) (*gds.Cufile, string, error) {
	out, err := module.Capture(ctx, h, module.Command("cat", "--", path))
	if err != nil {
		return nil, "", err
	}
	if out.RC != 0 {
		return nil, fmt.Sprintf("%s on %s: %s", path, h.Name(), cmp.Or(module.LastLine(out.Stderr), "cannot be read")), nil
	}
	if ev != nil {
		ev[path] = out.Stdout
	}
	cf, err := gds.ParseCufile([]byte(out.Stdout))
	if err != nil {
		return nil, "", fmt.Errorf("%s on %s: %w", path, h.Name(), err)
	}
	return cf, "", nil
}

// judge fills the outputs that combine gdscheck, cufile.json and the
// kernel command line: the IOMMU mode and the data path.
func judge(r *result, c *gds.Check, cf *gds.Cufile, cfErr string, fs *string, cmdline string) {
	r.IOMMU = iommuMode(c, cmdline)
	ok := 0
	for _, g := range c.GPUs {
		if g.SupportsGDS {
			ok++
		} else {
			r.GPUsWithoutGDS = append(r.GPUsWithoutGDS, g.Index)
		}
	}
	if cf != nil {
		r.CompatForced, r.CompatAllowed = cf.ForceCompatMode, cf.AllowCompatMode
		sec := ""
		if fs != nil {
			sec = cufileFS[strings.ToLower(*fs)]
		}
		r.RDMADevAddrList = append(r.RDMADevAddrList, cf.AddrList(sec)...)
	}
	r.DataPath, r.DataPathReasons = dataPath(c, cf, cfErr, fs, r.FSSupported, ok)
	if r.DataPath != pathCompat && r.CompatAllowed != nil && *r.CompatAllowed {
		r.Warnings = append(r.Warnings, "cufile.json allows compatibility mode (allow_compat_mode): a file that cannot use GDS falls back to host memory without an error")
	}
}

func optional(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
