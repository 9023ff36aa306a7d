package gdsread

import (
	"cmp"
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/zclconf/go-cty/cty"

	"github.com/provadev/prova/engine/module"
	"github.com/provadev/prova/parse/gds"
)

type args struct {
	File      string `cty:"file"`
	GPU       int    `cty:"gpu"`
	Size      string `cty:"size"`
	GdsioPath string `cty:"gdsio_path"`
	StatsPath string `cty:"stats_path"`
}

// NewArgs implements module.Arguments: the struct the arguments decode into.
func (*Read) NewArgs() any { return new(args) }

// Reads implements module.ReadOnly: gdsio -I 0 reads, it writes nothing.
func (*Read) Reads(v cty.Value) string {
	a, err := module.DecodeArgs[args](v)
	if err != nil {
		return "reads a file into a GPU with gdsio and compares nvidia-fs's counters"
	}
	return fmt.Sprintf("reads %s of %s into GPU %d with gdsio and compares nvidia-fs's counters", a.Size, a.File, a.GPU)
}

type result struct {
	Mode       string   `cty:"mode"`
	Reasons    []string `cty:"reasons"`
	IOStats    bool     `cty:"io_stats"`
	GdsioMiB   float64  `cty:"gdsio_mib"`
	NvfsMiB    int64    `cty:"nvfs_read_mib"`
	NvfsReads  int64    `cty:"nvfs_reads"`
	Throughput float64  `cty:"throughput_gib_s"`
	XferType   string   `cty:"xfer_type"`
}

// Apply reads the counters, runs the read, reads them again.
func (*Read) Apply(ctx context.Context, req module.ApplyRequest) (module.ApplyResponse, error) {
	resp := module.ApplyResponse{Outputs: cty.NullVal(outputsType)}
	a, err := module.Args[args](req)
	if err != nil {
		return resp, err
	}
	h := req.Host
	if strings.TrimSpace(a.File) == "" {
		return resp, fmt.Errorf("gds_read on %s: file is empty: name a file on the mount to read (at least %s)", h.Name(), a.Size)
	}
	r := result{Reasons: []string{}}
	resp.Evidence = map[string]string{}
	before, err := stats(ctx, h, a.StatsPath, resp.Evidence, "before")
	if err != nil {
		return resp, err
	}
	cmd := module.Command(a.GdsioPath, "-f", a.File, "-d", strconv.Itoa(a.GPU), "-w", "1", "-s", a.Size, "-i", "1M", "-x", "0", "-I", "0")
	out, err := module.Capture(ctx, h, cmd)
	resp.RC, resp.Stdout, resp.Stderr = out.RC, out.Stdout, out.Stderr
	if err != nil {
		return resp, err
	}
	resp.Evidence["gdsio"] = out.Stdout + out.Stderr
	after, err := stats(ctx, h, a.StatsPath, resp.Evidence, "after")
	if err != nil {
		return resp, err
	}
	if out.RC != 0 {
		r.Mode = "failed"
		r.Reasons = append(r.Reasons, fmt.Sprintf("gdsio failed on %s (status %d): %s", h.Name(), out.RC, cmp.Or(module.LastLine(out.Stderr), module.LastLine(out.Stdout), "no output")))
		return finish(resp, r)
	}
	g, err := gds.ParseGdsio([]byte(out.Stdout))
	if err != nil {
		return resp, fmt.Errorf("gdsio on %s: %w", h.Name(), err)
	}
	if len(g.Results) != 1 {
		return resp, fmt.Errorf("gdsio on %s printed %d result lines, want 1: %q", h.Name(), len(g.Results), module.LastLine(out.Stdout))
	}
	res := g.Results[0]
	r.GdsioMiB, r.Throughput, r.XferType = float64(res.DataSetKiB)/1024, res.ThroughputGiBs, res.XferType
	judge(&r, before, after, a.StatsPath)
	return finish(resp, r)
}

func finish(resp module.ApplyResponse, r result) (module.ApplyResponse, error) {
	var err error
	resp.Outputs, err = module.Encode(r, outputsType)
	resp.Message = r.Mode
	if len(r.Reasons) > 0 {
		resp.Message += ": " + r.Reasons[0]
	}
	return resp, err
}

// stats reads nvidia-fs's counters; nil when the file is not there
// (nvidia_fs not loaded).
func stats(ctx context.Context, h module.Host, path string, ev map[string]string, when string) (*gds.NvfsStats, error) {
	out, err := module.Capture(ctx, h, module.Command("cat", "--", path))
	if err != nil {
		return nil, err
	}
	if out.RC != 0 {
		return nil, nil
	}
	ev[path+" ("+when+")"] = out.Stdout
	s, err := gds.ParseNvfsStats([]byte(out.Stdout))
	if err != nil {
		return nil, fmt.Errorf("%s on %s: %w", path, h.Name(), err)
	}
	return s, nil
}

// judge decides the mode from the counters around the read.
func judge(r *result, before, after *gds.NvfsStats, path string) {
	if before == nil || after == nil {
		r.Mode = "unknown"
		r.Reasons = append(r.Reasons, path+" not readable: nvidia_fs is not loaded, no counter can show a GPU-direct read")
		return
	}
	r.IOStats = after.IOStats
	mib0, n0, ok0 := before.ReadMiB()
	mib1, n1, ok1 := after.ReadMiB()
	if !ok0 || !ok1 {
		r.Mode = "unknown"
		r.Reasons = append(r.Reasons, "nvidia-fs IO stats are disabled: Reads carries no byte count (echo 1 > /sys/module/nvidia_fs/parameters/rw_stats_enabled)")
		return
	}
	r.NvfsMiB, r.NvfsReads = mib1-mib0, n1-n0
	if r.NvfsMiB < 0 { // the stats were reset (echo 0 > stats) during the read
		r.Mode = "unknown"
		r.Reasons = append(r.Reasons, "nvidia-fs counters went down during the read: reset while reading")
		return
	}
	if float64(r.NvfsMiB) >= 0.9*r.GdsioMiB && r.GdsioMiB > 0 {
		r.Mode = "gpu_direct"
		r.Reasons = append(r.Reasons, fmt.Sprintf("nvidia-fs counted %d of the %.0f MiB read (%d reads into GPU memory)", r.NvfsMiB, r.GdsioMiB, r.NvfsReads))
		return
	}
	r.Mode = "compat"
	r.Reasons = append(r.Reasons, fmt.Sprintf("nvidia-fs counted %d of the %.0f MiB read: compatibility mode, through host memory", r.NvfsMiB, r.GdsioMiB))
}
