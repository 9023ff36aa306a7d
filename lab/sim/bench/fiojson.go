package bench

import (
	"fmt"
	"strconv"
	"strings"
)

// jv is an ordered JSON object as fio prints it: "key" : value, two-space
// indent, floats with six decimals.
type jv []jkv

type jkv struct {
	k string
	v any // int64, int, float64, string, jv, []jv
}

func (o jv) write(b *strings.Builder, indent string) {
	b.WriteString("{\n")
	for i, kv := range o {
		fmt.Fprintf(b, "%s  %q : ", indent, kv.k)
		writeVal(b, kv.v, indent+"  ")
		if i < len(o)-1 {
			b.WriteString(",")
		}
		b.WriteString("\n")
	}
	b.WriteString(indent + "}")
}

func writeVal(b *strings.Builder, v any, indent string) {
	switch x := v.(type) {
	case jv:
		x.write(b, indent)
	case []jv:
		b.WriteString("[\n")
		for i, o := range x {
			b.WriteString(indent + "  ")
			o.write(b, indent+"  ")
			if i < len(x)-1 {
				b.WriteString(",")
			}
			b.WriteString("\n")
		}
		b.WriteString(indent + "]")
	case float64:
		fmt.Fprintf(b, "%f", x)
	case int:
		b.WriteString(strconv.Itoa(x))
	case int64:
		b.WriteString(strconv.FormatInt(x, 10))
	case string:
		fmt.Fprintf(b, "%q", x)
	}
}

func latObj(l latStats, n int64, pct bool) jv {
	o := jv{{"min", int64(l.Min * 1000)}, {"max", int64(l.Max * 1000)}, {"mean", l.Mean * 1000}, {"stddev", l.Stdev * 1000}, {"N", n}}
	if pct {
		var ps jv
		for _, p := range fioPcts {
			ps = append(ps, jkv{fmt.Sprintf("%f", p), bucketNs(l.P(p))})
		}
		o = append(o, jkv{"percentile", ps})
	}
	return o
}

func zeroDir() jv {
	z := jv{{"min", 0}, {"max", 0}, {"mean", 0.0}, {"stddev", 0.0}, {"N", 0}}
	return jv{{"io_bytes", 0}, {"io_kbytes", 0}, {"bw_bytes", 0}, {"bw", 0}, {"iops", 0.0}, {"runtime", 0},
		{"total_ios", 0}, {"short_ios", 0}, {"drop_ios", 0}, {"slat_ns", z}, {"clat_ns", z}, {"lat_ns", z},
		{"bw_min", 0}, {"bw_max", 0}, {"bw_agg", 0.0}, {"bw_mean", 0.0}, {"bw_dev", 0.0}, {"bw_samples", 0},
		{"iops_min", 0}, {"iops_max", 0}, {"iops_mean", 0.0}, {"iops_stddev", 0.0}, {"iops_samples", 0}}
}

func (f *fioResult) dirObj() jv {
	ios := f.jobIOs()
	bytes := ios * f.o.bs
	kib := f.jobBps() / 1024
	return jv{{"io_bytes", bytes}, {"io_kbytes", bytes / 1024}, {"bw_bytes", int64(f.jobBps())}, {"bw", int64(kib)},
		{"iops", f.jobIOPS()}, {"runtime", f.runMs()}, {"total_ios", ios}, {"short_ios", 0}, {"drop_ios", 0},
		{"slat_ns", latObj(f.slat, ios, false)}, {"clat_ns", latObj(f.clat, ios, true)}, {"lat_ns", latObj(f.out.Lat, ios, false)},
		{"bw_min", int64(kib * 0.93)}, {"bw_max", int64(kib * 1.06)}, {"bw_agg", 100 / float64(f.jobs)}, {"bw_mean", kib},
		{"bw_dev", kib * 0.02}, {"bw_samples", f.samples}, {"iops_min", int64(f.jobIOPS() * 0.93)},
		{"iops_max", int64(f.jobIOPS() * 1.06)}, {"iops_mean", f.jobIOPS()}, {"iops_stddev", f.jobIOPS() * 0.02},
		{"iops_samples", f.samples}}
}

func (f *fioResult) jobObj(j int) jv {
	opts := jv{}
	for _, kv := range f.o.jobOpts {
		opts = append(opts, jkv{kv[0], kv[1]})
	}
	read, write := f.dirObj(), zeroDir()
	if f.dir() == "write" {
		read, write = write, read
	}
	us, ms, over := f.latShares()
	var ns, usj, msj jv
	for _, k := range []int{2, 4, 10, 20, 50, 100, 250, 500, 750, 1000} {
		ns = append(ns, jkv{strconv.Itoa(k), 0.0})
	}
	for i, k := range usBuckets {
		usj = append(usj, jkv{fmt.Sprint(k), us[i]})
	}
	for i, k := range msBuckets {
		msj = append(msj, jkv{fmt.Sprint(k), ms[i]})
	}
	msj = append(msj, jkv{">=2000", over})
	depth := func(keys []string, full string) jv {
		var o jv
		for _, k := range keys {
			v := 0.0
			if k == full {
				v = 100
			}
			o = append(o, jkv{k, v})
		}
		return o
	}
	lvl := jv{}
	for _, item := range strings.Split(depthDist(f.o.iodepth), ", ") {
		k, v, _ := strings.Cut(item, "=")
		x, _ := strconv.ParseFloat(strings.TrimSuffix(v, "%"), 64)
		lvl = append(lvl, jkv{k, x})
	}
	sub := []string{"0", "4", "8", "16", "32", "64", ">=64"}
	return jv{{"jobname", f.o.name}, {"groupid", 0}, {"error", 0}, {"eta", 0}, {"elapsed", int(f.out.Elapsed.Seconds()) + 1},
		{"job options", opts}, {"read", read}, {"write", write}, {"trim", zeroDir()},
		{"sync", jv{{"total_ios", 0}, {"lat_ns", jv{{"min", 0}, {"max", 0}, {"mean", 0.0}, {"stddev", 0.0}, {"N", 0}}}}},
		{"job_runtime", f.out.Elapsed.Milliseconds() * int64(f.o.numjobs/f.jobs)}, {"usr_cpu", f.usr}, {"sys_cpu", f.sys},
		{"ctx", f.jobIOs()/3 + 100}, {"majf", 0}, {"minf", 40 + f.o.iodepth}, {"iodepth_level", lvl},
		{"iodepth_submit", depth(sub, "4")}, {"iodepth_complete", depth(sub, "4")},
		{"latency_ns", ns}, {"latency_us", usj}, {"latency_ms", msj}, {"latency_depth", f.o.iodepth},
		{"latency_target", 0}, {"latency_percentile", 100.0}, {"latency_window", 0}}
}

func (f *fioResult) json() string {
	var jobs []jv
	for j := 0; j < f.jobs; j++ {
		jobs = append(jobs, f.jobObj(j))
	}
	ios := f.out.IOs
	r, w := ios, int64(0)
	if f.dir() == "write" {
		r, w = 0, ios
	}
	ticks := int64(float64(ios) * f.out.Lat.Mean / 1000 / float64(max(f.o.iodepth, 1)))
	disk := jv{{"name", f.dev.Name}, {"read_ios", r}, {"write_ios", w}, {"read_merges", 0}, {"write_merges", 0},
		{"read_ticks", ticks * boolI(r > 0)}, {"write_ticks", ticks * boolI(w > 0)}, {"in_queue", ticks}, {"util", 99.2}}
	top := jv{{"fio version", "fio-3.33"}, {"timestamp", f.end.Unix()}, {"timestamp_ms", f.end.UnixMilli()},
		{"time", f.end.Format("Mon Jan _2 15:04:05 2006")}, {"jobs", jobs}, {"disk_util", []jv{disk}}}
	var b strings.Builder
	top.write(&b, "")
	b.WriteString("\n")
	return b.String()
}
