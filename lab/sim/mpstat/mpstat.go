package mpstat

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/provadev/prova/lab/model"
	"github.com/provadev/prova/lab/sim"
)

// Tool is the mpstat simulator; every node has it.
func Tool() sim.Tool { return sim.Tool{Name: "mpstat", Run: run, InProcess: true} }

const usage = `Usage: mpstat [ options ] [ <interval> [ <count> ] ]
Options are:
[ -A ] [ -n ] [ -T ] [ -u ] [ -V ]
[ -I { SUM | CPU | SCPU | ALL } ] [ -N { <node_list> | ALL } ]
[ --dec={ 0 | 1 | 2 } ] [ -o JSON ] [ -P { <cpu_list> | ALL } ]
`

type opts struct {
	cpus     []int // per-CPU rows, in order
	json     bool
	interval int
	count    int // -1 = until interrupted
}

func parse(args []string, ncpu int) (opts, bool) {
	o := opts{count: 1}
	var pos []int
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-P" && i+1 < len(args):
			i++
			if strings.EqualFold(args[i], "ALL") {
				for c := 0; c < ncpu; c++ {
					o.cpus = append(o.cpus, c)
				}
				continue
			}
			for _, f := range strings.Split(args[i], ",") {
				c, err := strconv.Atoi(f)
				if err != nil || c < 0 || c >= ncpu {
					return o, false
				}
				o.cpus = append(o.cpus, c)
			}
		case a == "-o" && i+1 < len(args) && args[i+1] == "JSON":
			i++
			o.json = true
		case a == "-u" || strings.HasPrefix(a, "--dec="):
		default:
			v, err := strconv.Atoi(a)
			if err != nil || v < 0 {
				return o, false
			}
			pos = append(pos, v)
		}
	}
	switch len(pos) {
	case 0:
	case 1:
		o.interval, o.count = pos[0], -1
	case 2:
		o.interval, o.count = pos[0], pos[1]
	default:
		return o, false
	}
	if o.interval == 0 {
		o.count = 1
	}
	return o, true
}

func run(ctx context.Context, e *sim.Env) int {
	n, err := e.Model()
	if err != nil {
		return e.Fail(err)
	}
	o, ok := parse(e.Args, n.CPUs)
	if !ok {
		fmt.Fprint(e.Stderr, usage)
		return 1
	}
	r := &report{e: e, n: n, o: o, ampm: ampm(e)}
	return r.run(ctx)
}

// ampm reports whether the command's locale prints 12-hour times.
func ampm(e *sim.Env) bool {
	for _, k := range []string{"LC_ALL", "LC_TIME", "LANG"} {
		if v := e.Env(k); v != "" {
			return strings.HasPrefix(v, "en_US")
		}
	}
	return false
}

type row struct {
	cpu  string
	load sim.CPULoad
}

type report struct {
	e    *sim.Env
	n    *model.Node
	o    opts
	ampm bool
	sum  []row // running sums for Average
	k    int
}

func (r *report) stamp(t time.Time) string {
	if r.ampm {
		return t.Format("03:04:05 PM")
	}
	return t.Format("15:04:05")
}

func (r *report) rows() ([]row, error) {
	s, err := r.e.Load()
	if err != nil {
		return nil, err
	}
	var all sim.CPULoad
	per := make([]row, 0, len(r.o.cpus))
	for c := 0; c < r.n.CPUs; c++ {
		l := s.CPU(c)
		all = add(all, l, 1/float64(r.n.CPUs))
	}
	for _, c := range r.o.cpus {
		per = append(per, row{strconv.Itoa(c), s.CPU(c)})
	}
	return append([]row{{"all", all}}, per...), nil
}

func add(a, b sim.CPULoad, f float64) sim.CPULoad {
	return sim.CPULoad{Usr: a.Usr + b.Usr*f, Nice: a.Nice + b.Nice*f, Sys: a.Sys + b.Sys*f, Iowait: a.Iowait + b.Iowait*f,
		Irq: a.Irq + b.Irq*f, Soft: a.Soft + b.Soft*f, Steal: a.Steal + b.Steal*f, Guest: a.Guest + b.Guest*f, Gnice: a.Gnice + b.Gnice*f}
}

func (r *report) run(ctx context.Context) int {
	now := r.e.Now()
	date := now.Format("01/02/06")
	if r.ampm {
		date = now.Format("01/02/2006")
	}
	if r.o.json {
		fmt.Fprintf(r.e.Stdout, "{\"sysstat\": {\n\t\"hosts\": [\n\t\t{\n\t\t\t\"nodename\": %q,\n\t\t\t\"sysname\": \"Linux\",\n"+
			"\t\t\t\"release\": %q,\n\t\t\t\"machine\": \"x86_64\",\n\t\t\t\"number-of-cpus\": %d,\n\t\t\t\"date\": %q,\n\t\t\t\"statistics\": [\n",
			r.n.Name, r.n.Kernel, r.n.CPUs, date)
	} else {
		fmt.Fprintf(r.e.Stdout, "Linux %s (%s) \t%s \t_x86_64_\t(%d CPU)\n", r.n.Kernel, r.n.Name, date, r.n.CPUs)
	}
	prev := now
	for i := 0; r.o.count < 0 || i < r.o.count; i++ {
		t := prev
		if r.o.interval > 0 {
			if err := r.e.Sleep(ctx, time.Duration(r.o.interval)*time.Second); err != nil {
				break
			}
			t = r.e.Now()
		}
		rows, err := r.rows()
		if err != nil {
			return r.e.Fail(err)
		}
		r.accumulate(rows)
		if r.o.json {
			if i > 0 {
				fmt.Fprint(r.e.Stdout, ",\n")
			}
			r.jsonBlock(t, rows)
		} else {
			r.textBlock(prev, t, rows, i == 0)
		}
		prev = t
	}
	if r.o.json {
		fmt.Fprint(r.e.Stdout, "\n\t\t\t]\n\t\t}\n\t]\n}}\n")
		return 0
	}
	if r.o.interval > 0 && r.k > 0 {
		avg := make([]row, len(r.sum))
		for i, s := range r.sum {
			avg[i] = row{s.cpu, add(sim.CPULoad{}, s.load, 1/float64(r.k))}
		}
		r.textRows("Average:", avg, len(avg) > 1)
	}
	return 0
}

func (r *report) accumulate(rows []row) {
	if r.sum == nil {
		r.sum = make([]row, len(rows))
		for i := range rows {
			r.sum[i].cpu = rows[i].cpu
		}
	}
	for i := range rows {
		r.sum[i].load = add(r.sum[i].load, rows[i].load, 1)
	}
	r.k++
}

const header = "  CPU    %usr   %nice    %sys %iowait    %irq   %soft  %steal  %guest  %gnice   %idle\n"

func (r *report) textBlock(from, at time.Time, rows []row, first bool) {
	// One row per interval: a single header; several: a header per block.
	if first || len(rows) > 1 {
		fmt.Fprintf(r.e.Stdout, "\n%-11s%s", r.stamp(from), header)
	}
	writeRows(r.e.Stdout, r.stamp(at), rows)
}

func (r *report) textRows(label string, rows []row, withHeader bool) {
	if withHeader {
		fmt.Fprintf(r.e.Stdout, "\n%-11s%s", label, header)
	}
	writeRows(r.e.Stdout, label, rows)
}

func writeRows(w io.Writer, label string, rows []row) {
	for _, x := range rows {
		l := x.load
		fmt.Fprintf(w, "%-11s %4s %7.2f %7.2f %7.2f %7.2f %7.2f %7.2f %7.2f %7.2f %7.2f %7.2f\n", label, x.cpu,
			l.Usr, l.Nice, l.Sys, l.Iowait, l.Irq, l.Soft, l.Steal, l.Guest, l.Gnice, l.Idle())
	}
}

func (r *report) jsonBlock(at time.Time, rows []row) {
	w := r.e.Stdout
	fmt.Fprintf(w, "\t\t\t\t{\n\t\t\t\t\t\"timestamp\": %q,\n\t\t\t\t\t\"cpu-load\": [\n", r.stamp(at))
	for i, x := range rows {
		l := x.load
		fmt.Fprintf(w, "\t\t\t\t\t\t{\"cpu\": %q, \"usr\": %.2f, \"nice\": %.2f, \"sys\": %.2f, \"iowait\": %.2f, \"irq\": %.2f, "+
			"\"soft\": %.2f, \"steal\": %.2f, \"guest\": %.2f, \"gnice\": %.2f, \"idle\": %.2f}",
			x.cpu, l.Usr, l.Nice, l.Sys, l.Iowait, l.Irq, l.Soft, l.Steal, l.Guest, l.Gnice, l.Idle())
		if i < len(rows)-1 {
			fmt.Fprint(w, ",")
		}
		fmt.Fprintln(w)
	}
	fmt.Fprint(w, "\t\t\t\t\t]\n\t\t\t\t}")
}
