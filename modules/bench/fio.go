package bench

import (
	"context"
	"strconv"

	"github.com/provadev/prova/engine/module"
	"github.com/provadev/prova/parse/fio"
)

// fioArgv is the fio command line: one job, libaio, time based, JSON.
func fioArgv(a args) []string {
	rt, _ := a.runtime()
	direct := "0"
	if a.Direct {
		direct = "1"
	}
	argv := []string{"fio", "--name=prova", "--filename=" + *a.Path, "--rw=" + a.Mode, "--bs=" + a.blockSize(),
		"--iodepth=" + strconv.Itoa(a.IODepth), "--numjobs=" + strconv.Itoa(a.Threads), "--ioengine=libaio",
		"--direct=" + direct, "--runtime=" + strconv.Itoa(rt), "--time_based", "--group_reporting"}
	if a.Size != nil {
		argv = append(argv, "--size="+*a.Size)
	}
	argv = append(argv, a.ExtraArgs...)
	return append(argv, "--output-format=json")
}

// runFio runs fio once; the result is nil when it failed.
func runFio(ctx context.Context, req module.ApplyRequest, a args) (module.ApplyResponse, *run, *result, error) {
	h := req.Host
	resp := module.ApplyResponse{Outputs: nullOutputs(), Changed: !a.reads()}
	r, err := measure(ctx, req, a, module.Command(a.pinned(fioArgv(a))...))
	resp.Evidence, resp.RC, resp.Stdout, resp.Stderr = r.evidence, r.out.RC, r.out.Stdout, r.out.Stderr
	if err != nil {
		return resp, nil, nil, err
	}
	res, perr := fio.Parse([]byte(r.out.Stdout))
	if r.out.RC != 0 {
		resp = failed(resp, h, "fio", r.out)
		if perr != nil {
			resp.Message += " (" + perr.Error() + ")"
		}
		return resp, &r, nil, nil
	}
	if perr != nil {
		return resp, &r, nil, parseFailed(h, perr)
	}
	out := fromBench(res.Total())
	out.Op = a.Mode
	return resp, &r, &out, nil
}
