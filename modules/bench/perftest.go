package bench

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/provadev/prova/engine/module"
	"github.com/provadev/prova/parse/bench"
	"github.com/provadev/prova/parse/perftest"
)

// serverDir holds a perftest server's pid and output on its host: one
// server per tool and host at a time.
func serverDir(tool string) string { return "/tmp/prova-perftest-" + tool }

// perftestArgv is the command line shared by server and client.
func perftestArgv(a args) []string {
	argv := []string{a.Tool}
	if a.RDMADevice != nil {
		argv = append(argv, "-d", *a.RDMADevice)
	}
	if a.BlockSize != nil {
		n, _ := bytesOf(*a.BlockSize)
		argv = append(argv, "-s", strconv.FormatInt(n, 10))
	}
	if rt, _ := a.runtime(); rt > 0 {
		argv = append(argv, "-D", strconv.Itoa(rt))
	}
	return append(argv, a.ExtraArgs...)
}

func latencyTool(tool string) bool { return strings.HasSuffix(tool, "_lat") }

// running returns the pid of the tool's server when it is alive.
func running(ctx context.Context, h module.Host, tool string) (int, error) {
	pidFile := serverDir(tool) + "/pid"
	out, err := module.Capture(ctx, h, `pid=$(cat `+pidFile+` 2>/dev/null) && kill -0 "$pid" 2>/dev/null && echo "$pid"`)
	if err != nil {
		return 0, err
	}
	pid, perr := strconv.Atoi(strings.TrimSpace(out.Stdout))
	if out.RC != 0 || perr != nil {
		return 0, nil
	}
	return pid, nil
}

func planServer(ctx context.Context, h module.Host, a args) (module.PlanResponse, error) {
	pid, err := running(ctx, h, a.Tool)
	if err != nil {
		return module.PlanResponse{}, err
	}
	if a.Role == "server" {
		if pid > 0 {
			return module.PlanResponse{Action: module.NoOp, Summary: fmt.Sprintf("%s server already running (pid %d)", a.Tool, pid)}, nil
		}
		return module.PlanResponse{Action: module.Change, Summary: "will start " + a.describe()}, nil
	}
	out, err := module.Capture(ctx, h, module.Command("test", "-d", serverDir(a.Tool)))
	if err != nil {
		return module.PlanResponse{}, err
	}
	if out.RC != 0 {
		return module.PlanResponse{Action: module.NoOp, Summary: "no " + a.Tool + " server to collect"}, nil
	}
	return module.PlanResponse{Action: module.Change, Summary: "will collect " + a.describe() + " and remove it"}, nil
}

// applyServer starts the server detached (setsid, output to a file), so it
// outlives the SSH session, and returns its pid.
func applyServer(ctx context.Context, req module.ApplyRequest, a args) (module.ApplyResponse, error) {
	h := req.Host
	resp := module.ApplyResponse{Outputs: nullOutputs()}
	pid, err := running(ctx, h, a.Tool)
	if err != nil {
		return resp, err
	}
	if pid == 0 {
		dir := serverDir(a.Tool)
		cmd := "mkdir -p " + dir + " && cd " + dir + " && rm -f out pid && { setsid " + module.Command(perftestArgv(a)...) +
			" >out 2>&1 </dev/null & echo $! >pid; } && cat pid"
		out, err := module.Capture(ctx, h, cmd)
		resp.RC, resp.Stdout, resp.Stderr = out.RC, out.Stdout, out.Stderr
		if err != nil {
			return resp, err
		}
		if pid, err = strconv.Atoi(strings.TrimSpace(out.Stdout)); out.RC != 0 || err != nil {
			return failed(resp, h, a.Tool+" server start", out), nil
		}
		resp.Changed = true
	}
	res := result{Tool: a.Tool, Op: "server", ServerPID: &pid}
	v, err := res.value()
	resp.Outputs = v
	resp.Message = fmt.Sprintf("%s server running on %s (pid %d)", a.Tool, h.Name(), pid)
	return resp, err
}

func applyClient(ctx context.Context, req module.ApplyRequest, a args) (module.ApplyResponse, error) {
	h := req.Host
	resp := module.ApplyResponse{Outputs: nullOutputs()}
	r, err := measure(ctx, req, a, module.Command(append(perftestArgv(a), *a.ServerAddress)...))
	resp.Evidence, resp.RC, resp.Stdout, resp.Stderr = r.evidence, r.out.RC, r.out.Stdout, r.out.Stderr
	if err != nil {
		return resp, err
	}
	res, perr := parsePerftest(a.Tool, r.out.Stdout+r.out.Stderr)
	if perr != nil {
		return resp, parseFailed(h, perr)
	}
	if why := perftestProblem(res, r.out.RC); why != "" {
		resp.Failed = true
		resp.Message = fmt.Sprintf("%s client on %s against %s: %s", a.Tool, h.Name(), *a.ServerAddress, why)
		return resp, nil
	}
	return finish(resp, r, perftestResult(a.Tool, res), a.describe())
}

// applyCollect waits up to max_wait for the server to exit, stops it if it
// is still waiting, reads its output and removes its directory.
func applyCollect(ctx context.Context, req module.ApplyRequest, a args) (module.ApplyResponse, error) {
	h := req.Host
	resp := module.ApplyResponse{Outputs: nullOutputs()}
	dir := serverDir(a.Tool)
	wait, _ := seconds("max_wait", a.MaxWait)
	pid, err := running(ctx, h, a.Tool)
	if err != nil {
		return resp, err
	}
	killed := false
	if pid > 0 {
		if killed, err = awaitExit(ctx, h, a.Tool, pid, time.Duration(wait)*time.Second); err != nil {
			return resp, err
		}
	}
	out, err := module.Capture(ctx, h, module.Command("cat", "--", dir+"/out"))
	if err != nil {
		return resp, err
	}
	if out.RC != 0 {
		resp.Message = "no " + a.Tool + " server output on " + h.Name()
		return resp, nil
	}
	resp.Changed, resp.Stdout = true, out.Stdout
	resp.Evidence = map[string]string{a.Tool + " server": out.Stdout}
	removeDir(ctx, h, dir)
	if killed {
		resp.Failed = true
		resp.Message = fmt.Sprintf("%s server on %s still running after %s (no client came?): stopped", a.Tool, h.Name(), a.MaxWait)
		return resp, nil
	}
	res, perr := parsePerftest(a.Tool, out.Stdout)
	if perr != nil {
		return resp, parseFailed(h, perr)
	}
	if why := perftestProblem(res, 0); why != "" {
		resp.Failed = true
		resp.Message = fmt.Sprintf("%s server on %s: %s", a.Tool, h.Name(), why)
		return resp, nil
	}
	pr := perftestResult(a.Tool, res)
	pr.Op = "server"
	return finish(resp, run{}, pr, a.Tool+" server")
}

// awaitExit polls every second until pid is gone or wait passes, then
// stops it (TERM). It reports whether it had to stop it.
func awaitExit(ctx context.Context, h module.Host, tool string, pid int, wait time.Duration) (bool, error) {
	deadline := time.Now().Add(wait)
	t := time.NewTicker(time.Second)
	defer t.Stop()
	for {
		out, err := module.Capture(ctx, h, "kill -0 "+strconv.Itoa(pid)+" 2>/dev/null")
		if err != nil {
			return false, err
		}
		if out.RC != 0 {
			return false, nil
		}
		if time.Now().After(deadline) {
			_, err := module.Capture(ctx, h, "kill "+strconv.Itoa(pid)+" 2>/dev/null")
			return true, err
		}
		select {
		case <-ctx.Done():
			return false, fmt.Errorf("waiting for %s server on %s: %w", tool, h.Name(), ctx.Err())
		case <-t.C:
		}
	}
}

func parsePerftest(tool, out string) (*perftest.Result, error) {
	if latencyTool(tool) {
		return perftest.ParseLatency([]byte(out))
	}
	return perftest.ParseBandwidth([]byte(out))
}

// perftestProblem says why a run did not measure, or "".
func perftestProblem(r *perftest.Result, rc int) string {
	switch {
	case r.NoDevice:
		return "no RDMA device: " + r.Message
	case len(r.Errors) > 0:
		return strings.Join(r.Errors, "; ")
	case rc != 0:
		return fmt.Sprintf("exited %d", rc)
	case r.Side == "client" && !r.HasResults():
		return "no result table printed"
	}
	return ""
}

// perftestResult takes the last (largest message size) row.
func perftestResult(tool string, r *perftest.Result) result {
	b := bench.Result{Tool: tool, Op: "latency"}
	if n := len(r.Latency); n > 0 {
		row := r.Latency[n-1]
		has := func(col string) bool { return hasColumn(r.Columns, col) }
		b.LatUs.Set(bench.Avg, row.AvgUs)
		if row.MinUs > 0 || has("t_min") {
			b.LatUs.Set(bench.Min, row.MinUs)
			b.LatUs.Set(bench.Max, row.MaxUs)
		}
		if row.TypicalUs > 0 {
			b.LatUs.Set(bench.P50, row.TypicalUs) // perftest's t_typical is the median
		}
		if row.P99Us > 0 {
			b.LatUs.Set(bench.P99, row.P99Us)
		}
		if row.P999Us > 0 {
			b.LatUs.Set(bench.P999, row.P999Us)
		}
		if row.TPS > 0 {
			b.IOPS = row.TPS
		}
	}
	if n := len(r.Bandwidth); n > 0 {
		row := r.Bandwidth[n-1]
		b.Op = "bandwidth"
		b.SetMiBps(row.AvgMiBps)
		b.IOPS = row.MsgRateMpps * 1e6
	}
	res := fromBench(b)
	if len(r.Bandwidth) == 0 { // latency tests measure no throughput
		res.MiBps, res.Gbps = nil, nil
		if b.IOPS == 0 {
			res.IOPS = nil
		}
	}
	return res
}

func hasColumn(cols []string, prefix string) bool {
	for _, c := range cols {
		if strings.HasPrefix(c, prefix) {
			return true
		}
	}
	return false
}
