package bench

import (
	"fmt"
	"math"
	"strings"
)

// num2str is fio's number formatting: at most four digits, then a unit
// ("41.6k", "1100k", "162MiB", "10.7GiB").
func num2str(v, base float64, units []string) string {
	i := 0
	for v >= 10000 && i < len(units)-1 {
		v /= base
		i++
	}
	if i == 0 {
		return fmt.Sprintf("%d%s", int64(v), units[0])
	}
	digits := len(fmt.Sprintf("%d", int64(v)))
	if dec := 4 - digits - 1; dec > 0 {
		return fmt.Sprintf("%.*f%s", dec, math.Floor(v*math.Pow10(dec))/math.Pow10(dec), units[i])
	}
	return fmt.Sprintf("%d%s", int64(v), units[i])
}

var (
	unitsCount = []string{"", "k", "M", "G"}
	unitsBin   = []string{"B", "KiB", "MiB", "GiB", "TiB"}
	unitsDec   = []string{"B", "kB", "MB", "GB", "TB"}
)

func bw2(bps float64) string { return num2str(bps, 1024, unitsBin) }
func bw10(bps float64) string {
	return num2str(bps, 1000, unitsDec)
}

// bsText is the block size in the job line: 4096B, 16.0KiB, 128KiB, 1024KiB.
func bsText(bs int64) string {
	if bs < 10000 {
		return fmt.Sprintf("%dB", bs)
	}
	k := float64(bs) / 1024
	if k < 100 {
		return fmt.Sprintf("%.1fKiB", k)
	}
	if k < 10000 {
		return fmt.Sprintf("%.0fKiB", k)
	}
	return fmt.Sprintf("%.0fMiB", k/1024)
}

func fioBanner(o *fioOpts) string {
	bs := bsText(o.bs)
	s := fmt.Sprintf("%s: (g=0): rw=%s, bs=(R) %s-%s, (W) %s-%s, (T) %s-%s, ioengine=%s, iodepth=%d\n",
		o.name, o.rw, bs, bs, bs, bs, bs, bs, o.engine, o.iodepth)
	if o.numjobs > 1 {
		s += "...\n"
	}
	proc := "process"
	if o.numjobs > 1 {
		proc = "processes"
	}
	return s + fmt.Sprintf("fio-3.33\nStarting %d %s\n", o.numjobs, proc)
}

// dir is "read" or "write".
func (f *fioResult) dir() string {
	if strings.HasSuffix(f.o.rw, "write") {
		return "write"
	}
	return "read"
}

// per-job figures
func (f *fioResult) jobIOPS() float64 { return f.out.IOPS / float64(f.jobs) }
func (f *fioResult) jobBps() float64  { return f.out.Bps / float64(f.jobs) }
func (f *fioResult) jobIOs() int64    { return f.out.IOs / int64(f.jobs) }
func (f *fioResult) runMs() int64     { return max(1, f.out.Elapsed.Milliseconds()+1) }

var fioPcts = []float64{1, 5, 10, 20, 30, 40, 50, 60, 70, 80, 90, 95, 99, 99.5, 99.9, 99.95, 99.99}

// bucketNs rounds a latency to fio's histogram resolution (ns).
func bucketNs(us float64) int64 {
	ns := int64(us * 1000)
	if ns < 1024 {
		return ns
	}
	shift := 0
	for ns>>shift >= 64 {
		shift++
	}
	return (ns >> shift) << shift
}

func (f *fioResult) text() string {
	var b strings.Builder
	for j := 0; j < f.jobs; j++ {
		f.textJob(&b, j)
	}
	bps, io := f.out.Bps, float64(f.out.IOs)*float64(f.o.bs)
	fmt.Fprintf(&b, "\nRun status group 0 (all jobs):\n   %s: bw=%s/s (%s/s), %s/s-%s/s (%s/s-%s/s), io=%s (%s), run=%d-%dmsec\n",
		strings.ToUpper(f.dir()), bw2(bps), bw10(bps), bw2(f.jobBps()), bw2(f.jobBps()), bw10(f.jobBps()), bw10(f.jobBps()),
		bw2(io), bw10(io), f.runMs(), f.runMs())
	ios := f.out.IOs
	r, w := ios, int64(0)
	if f.dir() == "write" {
		r, w = 0, ios
	}
	ticks := int64(float64(ios) * f.out.Lat.Mean / 1000 / float64(max(f.o.iodepth, 1)))
	fmt.Fprintf(&b, "\nDisk stats (read/write):\n  %s: ios=%d/%d, merge=0/0, ticks=%d/%d, in_queue=%d, util=%.2f%%\n",
		f.dev.Name, r, w, ticks*boolI(r > 0), ticks*boolI(w > 0), ticks, 99.2)
	return b.String()
}

func boolI(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

func (f *fioResult) textJob(b *strings.Builder, j int) {
	fmt.Fprintf(b, "\n%s: (groupid=0, jobs=%d): err= 0: pid=%d: %s\n", f.o.name, f.o.numjobs/f.jobs, f.pid+j, f.end.Format("Mon Jan _2 15:04:05 2006"))
	fmt.Fprintf(b, "  %s: IOPS=%s, BW=%s/s (%s/s)(%s/%dmsec)\n", f.dir(), num2str(f.jobIOPS(), 1000, unitsCount),
		bw2(f.jobBps()), bw10(f.jobBps()), bw2(float64(f.jobIOs())*float64(f.o.bs)), f.runMs())
	lat := func(name string, l latStats) {
		fmt.Fprintf(b, "%s (usec): min=%d, max=%d, avg=%.2f, stdev=%.2f\n", name, int64(l.Min), int64(l.Max), l.Mean, l.Stdev)
	}
	lat("    slat", f.slat)
	lat("    clat", f.clat)
	lat("     lat", f.out.Lat)
	b.WriteString("    clat percentiles (usec):\n")
	for i, p := range fioPcts {
		if i%4 == 0 {
			b.WriteString("     |")
		}
		fmt.Fprintf(b, " %5.2fth=[%5d]", p, bucketNs(f.clat.P(p))/1000)
		switch {
		case i == len(fioPcts)-1:
			b.WriteString("\n")
		case i%4 == 3:
			b.WriteString(",\n")
		default:
			b.WriteString(",")
		}
	}
	kib := f.jobBps() / 1024
	fmt.Fprintf(b, "   bw (  KiB/s): min=%d, max=%d, per=%.2f%%, avg=%.2f, stdev=%.2f, samples=%d\n",
		int64(kib*0.93), int64(kib*1.06), 100/float64(f.jobs), kib, kib*0.02, f.samples)
	iops := f.jobIOPS()
	fmt.Fprintf(b, "   iops        : min=%d, max=%d, avg=%.2f, stdev=%.2f, samples=%d\n",
		int64(iops*0.93), int64(iops*1.06), iops, iops*0.02, f.samples)
	for _, row := range f.latRows() {
		fmt.Fprintf(b, "  lat (%s)   : %s\n", row[0], row[1])
	}
	fmt.Fprintf(b, "  cpu          : usr=%.2f%%, sys=%.2f%%, ctx=%d, majf=0, minf=%d\n", f.usr, f.sys, f.jobIOs()/3+100, 40+f.o.iodepth)
	fmt.Fprintf(b, "  IO depths    : %s\n", depthDist(f.o.iodepth))
	b.WriteString("     submit    : 0=0.0%, 4=100.0%, 8=0.0%, 16=0.0%, 32=0.0%, 64=0.0%, >=64=0.0%\n")
	b.WriteString("     complete  : 0=0.0%, 4=100.0%, 8=0.0%, 16=0.0%, 32=0.0%, 64=0.0%, >=64=0.0%\n")
	r, w := f.jobIOs(), int64(0)
	if f.dir() == "write" {
		r, w = 0, r
	}
	fmt.Fprintf(b, "     issued rwts: total=%d,%d,0,0 short=0,0,0,0 dropped=0,0,0,0\n", r, w)
	fmt.Fprintf(b, "     latency   : target=0, window=0, percentile=100.00%%, depth=%d\n", f.o.iodepth)
}

var (
	usBuckets = []float64{2, 4, 10, 20, 50, 100, 250, 500, 750, 1000}
	msBuckets = []float64{2, 4, 10, 20, 50, 100, 250, 500, 750, 1000, 2000}
)

// latShares is the share (percent) of IOs per fio latency bucket.
func (f *fioResult) latShares() (us, ms []float64, over float64) {
	prev := 0.0
	for _, hi := range usBuckets {
		us = append(us, 100*f.out.Lat.Share(prev, hi))
		prev = hi
	}
	for _, hi := range msBuckets {
		ms = append(ms, 100*f.out.Lat.Share(prev, hi*1000))
		prev = hi * 1000
	}
	return us, ms, 100 * f.out.Lat.Share(prev, math.Inf(1))
}

// latRows are the "lat (usec)" / "lat (msec)" lines: non-zero buckets,
// five per line.
func (f *fioResult) latRows() [][2]string {
	us, ms, over := f.latShares()
	var rows [][2]string
	emit := func(unit string, bounds, shares []float64, extra string) {
		var items []string
		for i, s := range shares {
			if s >= 0.01 {
				items = append(items, fmt.Sprintf("%g=%.2f%%", bounds[i], s))
			}
		}
		if extra != "" {
			items = append(items, extra)
		}
		for len(items) > 0 {
			k := min(5, len(items))
			rows = append(rows, [2]string{unit, strings.Join(items[:k], ", ")})
			items = items[k:]
		}
	}
	emit("usec", usBuckets, us, "")
	extra := ""
	if over >= 0.01 {
		extra = fmt.Sprintf(">=2000=%.2f%%", over)
	}
	emit("msec", msBuckets, ms, extra)
	return rows
}

// depthDist is the "IO depths" distribution for iodepth d: the bucket
// holding d at 100%, the ramp-up buckets below it at 0.1%.
func depthDist(d int) string {
	var items []string
	for _, k := range []int{1, 2, 4, 8, 16, 32, 64} {
		v := "0.0%"
		switch {
		case k <= d && (k*2 > d || k == 64):
			v = "100.0%"
		case k < d:
			v = "0.1%"
		}
		name := fmt.Sprint(k)
		if k == 64 {
			name = ">=64"
		}
		items = append(items, name+"="+v)
	}
	return strings.Join(items, ", ")
}
