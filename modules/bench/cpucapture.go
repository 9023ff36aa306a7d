package bench

import (
	"context"
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hcldec"
	"github.com/zclconf/go-cty/cty"

	"github.com/provadev/prova/engine/module"
	"github.com/provadev/prova/parse/mpstat"
)

// CPUCapture is the "cpu_capture" module: mpstat on a host for a while.
// Steps run one after another, so it cannot watch a host while another
// host's bench step runs; for the CPU of the host that runs the benchmark,
// use the bench step's own cpu output.
type CPUCapture struct{}

// NewCPUCapture returns the cpu_capture module.
func NewCPUCapture() *CPUCapture { return &CPUCapture{} }

// ID returns "cpu_capture".
func (*CPUCapture) ID() string { return "cpu_capture" }

// Spec describes the module's arguments.
func (*CPUCapture) Spec() hcldec.Spec {
	return &hcldec.ObjectSpec{"duration": withDefault(attr("duration", cty.String), cty.StringVal("10s"))}
}

// Outputs are the cpu object's fields.
func (*CPUCapture) Outputs() cty.Type { return cpuType }

// Validate checks the duration.
func (*CPUCapture) Validate(v cty.Value) hcl.Diagnostics {
	if v.IsNull() || !v.IsKnown() {
		return nil
	}
	if d := v.GetAttr("duration"); d.IsKnown() && !d.IsNull() {
		if _, err := seconds("duration", d.AsString()); err != nil {
			return hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Invalid duration", Detail: err.Error() + "."}}
		}
	}
	return nil
}

func duration(args cty.Value) (int, error) {
	var a struct {
		Duration string `cty:"duration"`
	}
	if err := module.Decode(args, &a); err != nil {
		return 0, err
	}
	return seconds("duration", a.Duration)
}

// Reads implements module.ReadOnly: sampling only reads.
func (*CPUCapture) Reads(v cty.Value) string {
	n, err := duration(v)
	if err != nil {
		return "samples CPU"
	}
	return fmt.Sprintf("samples CPU for %ds", n)
}

// ApplyOnly implements module.ApplyOnly: sampling lasts as long as the
// benchmark it accompanies; plan does not run it.
func (*CPUCapture) ApplyOnly() {}

// Apply runs mpstat -P ALL 1 N and summarises it. A missing mpstat fails
// the step (sampling is all it does).
func (*CPUCapture) Apply(ctx context.Context, req module.ApplyRequest) (module.ApplyResponse, error) {
	resp := module.ApplyResponse{Outputs: cty.NullVal(cpuType)}
	n, err := duration(req.Args)
	if err != nil {
		return resp, err
	}
	h := req.Host
	cmd := mpstatCommand(n)
	stopProgress := startProgress(req.Progress, "mpstat on "+h.Name(), n)
	out, err := module.Capture(ctx, h, cmd)
	stopProgress()
	resp.RC, resp.Stdout, resp.Stderr = out.RC, out.Stdout, out.Stderr
	if err != nil {
		return resp, err
	}
	if out.RC != 0 {
		if out.RC == 127 {
			resp.Failed, resp.Message = true, "mpstat (sysstat) is not installed on "+h.Name()
			return resp, nil
		}
		return failed(resp, h, "mpstat", out), nil
	}
	r, err := mpstat.Parse([]byte(out.Stdout))
	if err != nil {
		return resp, parseFailed(h, err)
	}
	c := cpuOf(r)
	if resp.Outputs, err = module.Encode(c, cpuType); err != nil {
		return resp, err
	}
	resp.Message = fmt.Sprintf("%%soft %.2f, %%sys %.2f, %%irq %.2f, %%usr %.2f, %.1f busy cores (hottest %.0f %%) over %d samples",
		c.SoftPct, c.SysPct, c.IRQPct, c.UsrPct, c.BusyCores, c.HottestPct, c.Samples)
	return resp, nil
}

// Doc documents the module.
func (*CPUCapture) Doc() module.Doc {
	return module.Doc{
		Summary: "Samples each host's CPU with mpstat -P ALL 1 for a duration and returns %soft, %sys, %irq, %usr, %iowait, busy cores and the hottest core. Read-only. Steps run one after another: for the CPU during a benchmark, use the bench step's cpu output on the host that runs it.",
		Args:    map[string]string{"duration": "How long to sample, e.g. \"30s\" (one sample per second). Default \"10s\"."},
		Outputs: map[string]string{
			"soft_pct":         "All-CPU average %soft.",
			"sys_pct":          "All-CPU average %sys.",
			"irq_pct":          "All-CPU average %irq.",
			"usr_pct":          "All-CPU average %usr.",
			"iowait_pct":       "All-CPU average %iowait (idle with I/O outstanding: not counted as busy).",
			"kernel_pct":       "%soft + %sys + %irq.",
			"busy_cores":       "Sum over CPUs of (100 - %idle - %iowait) / 100.",
			"hottest_core_pct": "The busiest CPU's busy percentage (100 - %idle - %iowait); 0 without per-CPU rows.",
			"cpus":             "CPUs mpstat reported.",
			"samples":          "Number of one-second samples.",
		},
		Example: `step "cpu_capture" "target_idle_cpu" {
  hosts    = "target1"
  duration = "5s"
}`,
	}
}

var (
	_ module.Module    = (*CPUCapture)(nil)
	_ module.Describer = (*CPUCapture)(nil)
)
