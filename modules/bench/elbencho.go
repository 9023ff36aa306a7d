package bench

import (
	"context"
	"fmt"
	"strconv"

	"github.com/provadev/prova/engine/module"
	"github.com/provadev/prova/parse/elbencho"
)

// elbenchoArgv is the elbencho command line, e.g. elbencho -b 4K -t 16
// --iodepth 32 -r --rand --direct --lat --timelimit 30 --nolive --resfile
// DIR/elbencho.res /dev/nvme1n1.
func elbenchoArgv(a args, resfile string) []string {
	argv := []string{"elbencho", "-b", a.blockSize(), "-t", strconv.Itoa(a.Threads), "--iodepth", strconv.Itoa(a.IODepth)}
	if a.reads() {
		argv = append(argv, "-r")
	} else {
		argv = append(argv, "-w")
	}
	if a.random() {
		argv = append(argv, "--rand")
	}
	if a.Direct {
		argv = append(argv, "--direct")
	}
	rt, _ := a.runtime()
	argv = append(argv, "--lat", "--latpercent", "--timelimit", strconv.Itoa(rt), "--nolive", "--resfile", resfile)
	if a.Size != nil {
		argv = append(argv, "-s", *a.Size)
	}
	argv = append(argv, a.ExtraArgs...)
	return append(argv, *a.Path)
}

// runElbencho runs elbencho once; the result is nil when it failed.
func runElbencho(ctx context.Context, req module.ApplyRequest, a args) (module.ApplyResponse, *run, *result, error) {
	h := req.Host
	resp := module.ApplyResponse{Outputs: nullOutputs(), Changed: !a.reads()}
	dir, err := tempDir(ctx, h)
	if err != nil {
		return resp, nil, nil, err
	}
	defer removeDir(ctx, h, dir)
	resfile := dir + "/elbencho.res"
	r, err := measure(ctx, req, a, module.Command(a.pinned(elbenchoArgv(a, resfile))...))
	resp.Evidence, resp.RC, resp.Stdout, resp.Stderr = r.evidence, r.out.RC, r.out.Stdout, r.out.Stderr
	if err != nil {
		return resp, nil, nil, err
	}
	if r.out.RC != 0 {
		return failed(resp, h, "elbencho", r.out), &r, nil, nil
	}
	res, err := elbenchoResult(ctx, h, resfile, r.out.Stdout, a, resp.Evidence)
	if err != nil {
		return resp, &r, nil, err
	}
	return resp, &r, &res, nil
}

// elbenchoResult reads the resfile, else the console table, and picks the
// phase of the mode (READ or WRITE).
func elbenchoResult(ctx context.Context, h module.Host, resfile, console string, a args, ev map[string]string) (result, error) {
	var phases []elbencho.Phase
	var resErr error
	cat, err := module.Capture(ctx, h, module.Command("cat", "--", resfile))
	if err != nil {
		return result{}, err
	}
	if cat.RC == 0 {
		ev["resfile"] = cat.Stdout
		f, perr := elbencho.ParseResfile([]byte(cat.Stdout))
		if perr == nil {
			phases = f.Result().Phases
		}
		resErr = perr
	}
	if len(phases) == 0 {
		c, perr := elbencho.ParseConsole([]byte(console))
		switch {
		case (perr != nil || len(c.Phases) == 0) && resErr != nil:
			return result{}, parseFailed(h, resErr)
		case perr != nil:
			return result{}, parseFailed(h, perr)
		}
		phases = c.Phases
	}
	if len(phases) == 0 {
		return result{}, fmt.Errorf("on %s: elbencho printed no result table (resfile and console)", h.Name())
	}
	want := "WRITE"
	if a.reads() {
		want = "READ"
	}
	p := phases[len(phases)-1]
	for _, q := range phases {
		if q.Name == want {
			p = q
		}
	}
	res := fromBench(p.Bench())
	res.Op = a.Mode
	return res, nil
}
