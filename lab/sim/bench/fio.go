package bench

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/provadev/prova/lab/sim"
	"github.com/provadev/prova/lab/sim/nvme"
)

// Fio is the fio 3.33 simulator; every node has it. It runs one job
// (possibly with numjobs clones) on a simulated NVMe namespace.
func Fio() sim.Tool { return sim.Tool{Name: "fio", Run: runFio} }

type fioOpts struct {
	name, filename, rw, engine string
	bs                         int64
	iodepth, numjobs           int
	runtime                    time.Duration
	size                       int64
	timeBased, group           bool
	formats                    []string
	jobOpts                    [][2]string // as given, for "job options"
}

var fioEngines = []string{"libaio", "io_uring", "psync", "sync", "pvsync", "pvsync2", "posixaio"}

func parseFio(args []string) (*fioOpts, error) {
	o := &fioOpts{rw: "read", engine: "psync", bs: 4096, iodepth: 1, numjobs: 1, formats: []string{"normal"}}
	for _, a := range args {
		if !strings.HasPrefix(a, "--") {
			return nil, fmt.Errorf("fio: job files are not simulated (got %q); give the job on the command line", a)
		}
		k, v, hasVal := strings.Cut(a[2:], "=")
		var err error
		switch k {
		case "time_based":
			o.timeBased = true
		case "group_reporting":
			o.group = true
		case "name":
			o.name = v
		case "filename":
			o.filename = v
		case "rw", "readwrite":
			o.rw = v
		case "ioengine":
			o.engine = v
		case "bs", "blocksize":
			o.bs, err = binarySize(v)
		case "iodepth":
			o.iodepth, err = strconv.Atoi(v)
		case "numjobs":
			o.numjobs, err = strconv.Atoi(v)
		case "runtime":
			var d time.Duration
			if d, err = time.ParseDuration(v); err != nil {
				var s int
				s, err = strconv.Atoi(v)
				d = time.Duration(s) * time.Second
			}
			o.runtime = d
		case "size":
			o.size, err = binarySize(v)
		case "direct", "buffered", "norandommap", "randrepeat", "thread", "eta", "eta-newline":
		case "output-format":
			o.formats = strings.Split(v, ",")
			for _, f := range o.formats {
				if f != "normal" && f != "json" {
					return nil, fmt.Errorf("fio: output format %q is not simulated (normal, json)", f)
				}
			}
		default:
			return nil, fmt.Errorf("fio: unrecognized option '--%s'", k)
		}
		if err != nil || o.iodepth < 1 || o.numjobs < 1 || o.runtime < 0 {
			return nil, fmt.Errorf("fio: failed parsing %s=%s", k, v)
		}
		if hasVal && k != "output-format" {
			o.jobOpts = append(o.jobOpts, [2]string{k, v})
		}
	}
	switch {
	case o.name == "":
		return nil, fmt.Errorf("fio: need --name= for the job")
	case o.rw != "read" && o.rw != "randread" && o.rw != "write" && o.rw != "randwrite":
		return nil, fmt.Errorf("fio: rw=%s is not simulated (read, randread, write, randwrite)", o.rw)
	}
	return o, nil
}

func runFio(ctx context.Context, e *sim.Env) int {
	o, err := parseFio(e.Args)
	if err != nil {
		fmt.Fprintln(e.Stderr, err)
		return 1
	}
	if !slices.Contains(fioEngines, o.engine) {
		fmt.Fprintf(e.Stderr, "fio: engine %s not loadable\nfio: failed to load engine\n"+
			"fio: file:ioengines.c:134, func=dlopen, error=%s: cannot open shared object file: No such file or directory\n", o.engine, o.engine)
		return 1
	}
	dev, ok, err := nvme.Lookup(e, o.filename)
	if err != nil {
		return e.Fail(err)
	}
	if !ok {
		fmt.Fprintf(e.Stderr, "fio: prova lab simulates fio only on NVMe namespaces such as /dev/nvme1n1; %q is not one on this node\n", o.filename)
		return 1
	}
	n, err := e.Model()
	if err != nil {
		return e.Fail(err)
	}
	r, err := newRand(e)
	if err != nil {
		return e.Fail(err)
	}
	size := o.size
	if size == 0 {
		size = dev.SizeBytes
	}
	depth := o.iodepth
	if o.engine != "libaio" && o.engine != "io_uring" && o.engine != "posixaio" {
		depth = 1 // synchronous engines keep one IO in flight
	}
	w := workload{Write: strings.HasSuffix(o.rw, "write"), Random: strings.HasPrefix(o.rw, "rand"), BS: o.bs,
		Inflight: o.numjobs * depth, Size: size * int64(o.numjobs)}
	if o.timeBased {
		w.Time = o.runtime
	}
	out := simulate(r, pathOf(n, dev.Transport), w, n.CPUs)
	if o.runtime > 0 && out.Elapsed > o.runtime {
		out.Elapsed = o.runtime
		out.IOs = int64(out.IOPS * out.Elapsed.Seconds())
	}
	start := e.Now()
	if slices.Contains(o.formats, "normal") {
		fmt.Fprint(e.Stdout, fioBanner(o))
	}
	done, err := run(ctx, e, out.Load, out.Elapsed)
	if err != nil {
		return e.Fail(err)
	}
	if !done {
		return 130
	}
	res := newFioResult(r, o, dev, out, start, n.CPUs)
	for _, f := range o.formats {
		if f == "json" {
			fmt.Fprint(e.Stdout, res.json())
		} else {
			fmt.Fprint(e.Stdout, res.text())
		}
	}
	return 0
}

// fioResult holds what one fio run reports, per job.
type fioResult struct {
	o       *fioOpts
	dev     *nvme.Device
	out     outcome
	start   time.Time
	end     time.Time
	jobs    int // reported jobs: 1 with group_reporting
	slat    latStats
	clat    latStats
	usr     float64
	sys     float64
	samples int
	pid     int
}

func newFioResult(r *rand.Rand, o *fioOpts, dev *nvme.Device, out outcome, start time.Time, cpus int) *fioResult {
	res := &fioResult{o: o, dev: dev, out: out, start: start, end: start.Add(out.Elapsed), jobs: o.numjobs, pid: 4000 + r.IntN(3000)}
	if o.group {
		res.jobs = 1
	}
	slat := lognormal(r, 20000, 2.5, 0.3)
	clat := make([]float64, len(out.Lat.sorted))
	for i, v := range out.Lat.sorted {
		clat[i] = math.Max(0.5, v-slat[i%len(slat)])
	}
	res.slat, res.clat = newLatStats(slat), newLatStats(clat)
	busy := out.Load.utilPct(cpus) * float64(cpus) / float64(o.numjobs) // % of one CPU per job
	res.usr, res.sys = math.Min(100, busy*0.15), math.Min(100, busy*0.6)
	res.samples = max(1, int(2*out.Elapsed.Seconds())-1)
	return res
}
