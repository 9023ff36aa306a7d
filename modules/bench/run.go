package bench

import (
	"cmp"
	"context"
	"fmt"
	"strings"

	"github.com/zclconf/go-cty/cty"

	"github.com/provadev/prova/engine/module"
)

// run is one benchmark command's outcome.
type run struct {
	out      module.Output
	cpu      *cpuResult
	cpuNote  string
	evidence map[string]string
}

// measure runs cmd with CPU capture and progress reports around it.
func measure(ctx context.Context, req module.ApplyRequest, a args, cmd string) (run, error) {
	r := run{evidence: map[string]string{}}
	rt, _ := a.runtime()
	var s *sampler
	if a.CPUCapture {
		s = startCPU(ctx, req.Host, rt+cpuMargin)
	}
	stopProgress := startProgress(req.Progress, a.Tool+" on "+req.Host.Name(), rt)
	out, err := module.Capture(ctx, req.Host, cmd)
	stopProgress()
	r.out = out
	r.evidence[cmd] = out.Stdout + out.Stderr
	if s != nil {
		var ev string
		r.cpu, ev, r.cpuNote = s.stop(req.Host.Name())
		r.evidence[s.cmd] = ev
	}
	return r, err
}

// finish turns a parsed result into the response.
func finish(resp module.ApplyResponse, r run, res result, what string) (module.ApplyResponse, error) {
	res.CPU = r.cpu
	v, err := res.value()
	if err != nil {
		return resp, err
	}
	resp.Outputs = v
	resp.Message = what + ": " + summary(res)
	if r.cpuNote != "" {
		resp.Message += "; " + r.cpuNote
	}
	return resp, nil
}

func summary(r result) string {
	var parts []string
	add := func(p *float64, format string) {
		if p != nil {
			parts = append(parts, fmt.Sprintf(format, *p))
		}
	}
	add(r.IOPS, "%.0f IOPS")
	add(r.MiBps, "%.1f MiB/s")
	add(r.LatAvg, "lat avg %.1f µs")
	add(r.LatP99, "p99 %.1f µs")
	if r.CPU != nil {
		parts = append(parts, fmt.Sprintf("%%soft %.2f, kernel (soft+sys+irq) %.2f %%, %.1f busy cores", r.CPU.SoftPct, r.CPU.KernelPct, r.CPU.BusyCores))
	}
	if len(parts) == 0 {
		return "no results printed"
	}
	return strings.Join(parts, ", ")
}

// failed marks the response failed with the tool's last line.
func failed(resp module.ApplyResponse, h module.Host, tool string, out module.Output) module.ApplyResponse {
	resp.Failed = true
	resp.Message = fmt.Sprintf("%s on %s exited %d: %s", tool, h.Name(), out.RC, cmp.Or(module.LastLine(out.Stderr+"\n"+out.Stdout), "(no output)"))
	return resp
}

// tempDir makes a private remote directory for result files.
func tempDir(ctx context.Context, h module.Host) (string, error) {
	out, err := module.Capture(ctx, h, "mktemp -d /tmp/prova-bench.XXXXXX")
	if err != nil {
		return "", err
	}
	dir := strings.TrimSpace(out.Stdout)
	if out.RC != 0 || !strings.HasPrefix(dir, "/") || strings.ContainsAny(dir, "\n'") {
		return "", fmt.Errorf("mktemp on %s exited %d: %s", h.Name(), out.RC, cmp.Or(module.LastLine(out.Stderr+out.Stdout), "(no output)"))
	}
	return dir, nil
}

// removeDir removes dir unless ctx ended (then the directory stays in /tmp).
func removeDir(ctx context.Context, h module.Host, dir string) {
	if ctx.Err() == nil {
		module.Capture(ctx, h, module.Command("rm", "-rf", "--", dir))
	}
}

func nullOutputs() cty.Value { return cty.NullVal(outputsType) }

// parseFailed wraps a parser error (naming the tool and line) with the host.
func parseFailed(h module.Host, err error) error {
	return fmt.Errorf("on %s: %w", h.Name(), err)
}
