package bench

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/provadev/prova/lab/sim"
	"github.com/provadev/prova/lab/sim/nvme"
)

// Elbencho is the elbencho 3.x simulator; every node has it.
func Elbencho() sim.Tool { return sim.Tool{Name: "elbencho", Run: runElbencho} }

const elbenchoVersion = "3.1-1"

type elbOpts struct {
	read, write, rand, direct, lat, latPct, cpu bool
	bs                                          int64
	threads, iodepth                            int
	size                                        int64
	timelimit                                   time.Duration
	csvFile, resFile, label                     string
	paths                                       []string
	version                                     bool
}

func parseElbencho(args []string) (*elbOpts, error) {
	o := &elbOpts{bs: 1 << 20, threads: 1, iodepth: 1}
	flags := map[string]*bool{"r": &o.read, "read": &o.read, "w": &o.write, "write": &o.write, "rand": &o.rand,
		"direct": &o.direct, "lat": &o.lat, "latpercent": &o.latPct, "cpu": &o.cpu, "version": &o.version}
	ignored := map[string]bool{"nolive": true, "allelapsed": true, "live1": true, "no0usecerr": true, "dryrun": false}
	for i := 0; i < len(args); i++ {
		a := args[i]
		if !strings.HasPrefix(a, "-") || a == "-" {
			o.paths = append(o.paths, a)
			continue
		}
		name, val, hasVal := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if !strings.HasPrefix(a, "--") && len(name) > 1 { // -b4K
			name, val, hasVal = name[:1], name[1:], true
		}
		if p, ok := flags[name]; ok {
			*p = true
			continue
		}
		if ignored[name] {
			continue
		}
		if !hasVal {
			if i+1 >= len(args) {
				return nil, fmt.Errorf("the required argument for option '--%s' is missing", name)
			}
			i++
			val = args[i]
		}
		var err error
		switch name {
		case "b", "block":
			o.bs, err = binarySize(val)
		case "s", "size":
			o.size, err = binarySize(val)
		case "t", "threads":
			o.threads, err = strconv.Atoi(val)
		case "iodepth":
			o.iodepth, err = strconv.Atoi(val)
		case "timelimit":
			var sec int
			sec, err = strconv.Atoi(val)
			o.timelimit = time.Duration(sec) * time.Second
		case "csvfile":
			o.csvFile = val
		case "resfile":
			o.resFile = val
		case "label":
			o.label = val
		default:
			return nil, fmt.Errorf("unrecognised option '%s'", a)
		}
		if err != nil || o.threads < 1 || o.iodepth < 1 || o.timelimit < 0 {
			return nil, fmt.Errorf("the argument ('%s') for option '--%s' is invalid", val, name)
		}
	}
	return o, nil
}

func runElbencho(ctx context.Context, e *sim.Env) int {
	o, err := parseElbencho(e.Args)
	if err != nil {
		fmt.Fprintf(e.Stderr, "ERROR: %v\n", err)
		return 1
	}
	if o.version {
		fmt.Fprintf(e.Stdout, "elbencho\n * Version: %s\n * Net protocol version: 3.0.23\n * Build date: Jun 10 2025 09:12:44\n"+
			" * Included optional build features: backtrace corebind libaio libnuma ncurses syncfs syscallh \n"+
			" * Excluded optional build features: althttpsvc cuda cufile/gds hdfs mimalloc s3 s3crt \n"+
			" * System steady clock precision: 1e-09 sec\n", elbenchoVersion)
		return 0
	}
	if len(o.paths) != 1 {
		fmt.Fprintln(e.Stderr, "ERROR: prova lab simulates elbencho on exactly one NVMe block device path (e.g. /dev/nvme1n1).")
		return 1
	}
	dev, ok, err := nvme.Lookup(e, o.paths[0])
	if err != nil {
		return e.Fail(err)
	}
	if !ok {
		return noDevice(e, "ERROR: Unable to open benchmark path: "+o.paths[0]+" SysErr: No such file or directory", o.paths[0])
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
	start := e.Now()
	tab := &elbTable{o: o, dev: dev, size: size, cpus: n.CPUs}
	if err := tab.header(e, start); err != nil {
		return e.Fail(err)
	}
	p := pathOf(n, dev.Transport)
	for _, write := range []bool{true, false} {
		if write && !o.write || !write && !o.read {
			continue
		}
		w := workload{Write: write, Random: o.rand, BS: o.bs, Inflight: o.threads * o.iodepth, Time: o.timelimit, Size: size}
		out := simulate(r, p, w, n.CPUs)
		if o.timelimit > 0 && out.Elapsed > o.timelimit {
			out.Elapsed = o.timelimit
		}
		if o.timelimit > 0 {
			if full := time.Duration(float64(size) / out.Bps * float64(time.Second)); full < out.Elapsed {
				out.Elapsed = full // the whole size was done before the time limit
			}
			out.IOs = int64(out.IOPS * out.Elapsed.Seconds())
		}
		phaseStart := e.Now()
		done, err := run(ctx, e, out.Load, out.Elapsed)
		if err != nil {
			return e.Fail(err)
		}
		if !done {
			return 130
		}
		if err := tab.phase(e, phaseName(write), out, phaseStart); err != nil {
			return e.Fail(err)
		}
	}
	return 0
}

func phaseName(write bool) string {
	if write {
		return "WRITE"
	}
	return "READ"
}

// noDevice reports a path that is not a simulated NVMe namespace.
func noDevice(e *sim.Env, msg, path string) int {
	fmt.Fprintln(e.Stderr, msg)
	if !strings.HasPrefix(path, "/dev/nvme") {
		fmt.Fprintf(e.Stderr, "(prova lab simulates benchmarks only on NVMe namespaces such as /dev/nvme1n1; got %s)\n", path)
	}
	return 1
}

const (
	elbFmt = "%-11s %-16s %1s %11s %11s\n"
	elbDiv = "---\n"
)

// elbTable prints the console table and appends to --resfile/--csvfile.
type elbTable struct {
	o    *elbOpts
	dev  *nvme.Device
	size int64
	cpus int
}

func tableHeader() string {
	return fmt.Sprintf(elbFmt, "OPERATION", "RESULT TYPE", "", "FIRST DONE", "LAST DONE") +
		fmt.Sprintf(elbFmt, "===========", "================", "", "==========", "=========")
}

func (t *elbTable) header(e *sim.Env, now time.Time) error {
	io.WriteString(e.Stdout, tableHeader())
	if t.o.resFile != "" {
		s := "ISO DATE: " + now.Format("2006-01-02T15:04:05-0700") + "\n"
		if t.o.label != "" {
			s += "LABEL: " + t.o.label + "\n"
		}
		s += "COMMAND LINE: " + quotedArgs(e.Args) + "\n\n" + tableHeader()
		if err := appendFile(e, t.o.resFile, s); err != nil {
			return err
		}
	}
	if t.o.csvFile != "" {
		return csvHeader(e, t.o.csvFile)
	}
	return nil
}

func (t *elbTable) phase(e *sim.Env, name string, out outcome, start time.Time) error {
	last := out.Elapsed
	first := last - time.Duration(float64(last)*0.0007)
	total := float64(out.IOs) * float64(t.o.bs)
	firstIOs := float64(out.IOs) * 0.9995
	iops := func(ios float64, d time.Duration) uint64 { return uint64(ios / max(d.Seconds(), 1e-6)) }
	mibps := func(ios float64, d time.Duration) uint64 {
		return uint64(ios * float64(t.o.bs) / max(d.Seconds(), 1e-6) / mib)
	}
	var b strings.Builder
	fmt.Fprintf(&b, elbFmt, name, "Elapsed time", ":", humanMs(first), humanMs(last))
	fmt.Fprintf(&b, elbFmt, "", "IOPS", ":", u(iops(firstIOs, first)), u(iops(float64(out.IOs), last)))
	fmt.Fprintf(&b, elbFmt, "", "Throughput MiB/s", ":", u(mibps(firstIOs, first)), u(mibps(float64(out.IOs), last)))
	fmt.Fprintf(&b, elbFmt, "", "Total MiB", ":", u(uint64(firstIOs*float64(t.o.bs)/mib)), u(uint64(total/mib)))
	cpu := uint64(out.Load.utilPct(t.cpus))
	if t.o.cpu {
		fmt.Fprintf(&b, elbFmt, "", "CPU util %", ":", u(cpu), u(cpu))
	}
	l := out.Lat
	if t.o.lat {
		fmt.Fprintf(&b, "%-11s %-16s %1s [ min=%s avg=%s max=%s ]\n", "", "IO latency", ":", humanUs(l.Min), humanUs(l.Mean), humanUs(l.Max))
	}
	if t.o.latPct {
		fmt.Fprintf(&b, "%-11s %-16s %1s [ 1%%<=%d 50%%<=%d 75%%<=%d 99%%<=%d ]\n", "", "IO lat % us", ":",
			latBucket(l.P(1)), latBucket(l.P(50)), latBucket(l.P(75)), latBucket(l.P(99)))
	}
	b.WriteString(elbDiv)
	io.WriteString(e.Stdout, b.String())
	if t.o.resFile != "" {
		if err := appendFile(e, t.o.resFile, b.String()+"\n"); err != nil {
			return err
		}
	}
	if t.o.csvFile != "" {
		row := csvRow{start: start, o: t.o, size: t.size, op: name, firstMs: first.Milliseconds(), lastMs: last.Milliseconds(),
			iopsFirst: iops(firstIOs, first), iopsLast: iops(float64(out.IOs), last),
			mibFirst: mibps(firstIOs, first), mibLast: mibps(float64(out.IOs), last), cpu: cpu,
			totalFirst: uint64(firstIOs * float64(t.o.bs) / mib), totalLast: uint64(total / mib), lat: l, args: e.Args}
		return appendFile(e, t.o.csvFile, row.String())
	}
	return nil
}

func u(v uint64) string { return strconv.FormatUint(v, 10) }

// quotedArgs is elbencho's command line echo: "elbencho" "-b" "4K" ...
func quotedArgs(args []string) string {
	s := `"elbencho" `
	for _, a := range args {
		s += `"` + a + `" `
	}
	return s
}
