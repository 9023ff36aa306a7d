package fio

import (
	"errors"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/provadev/prova/internal/testkit/samples"
	"github.com/provadev/prova/parse"
	"github.com/provadev/prova/parse/bench"
)

func wantErr(t *testing.T, err error, line int, reason string) {
	t.Helper()
	var pe *parse.Error
	if !errors.As(err, &pe) || pe.Tool != "fio" || (line > 0 && pe.Line != line) || !strings.Contains(pe.Reason, reason) {
		t.Fatalf("got %v, want fio error at line %d containing %q", err, line, reason)
	}
}

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-6*math.Max(1, math.Abs(b)) }

func TestJSON(t *testing.T) {
	r, err := Parse(samples.Read(t, "fio/randread-4k.json"))
	if err != nil {
		t.Fatal(err)
	}
	if r.Format != "json" || r.Version != "fio-3.33" || len(r.Jobs) != 1 {
		t.Fatalf("got %+v", r)
	}
	j := r.Jobs[0]
	if j.Name != "randread4k" || j.Write != nil || j.Trim != nil || j.Read == nil {
		t.Fatalf("job %+v", j)
	}
	b := j.Bench()
	if len(b) != 1 || b[0].Op != "read" || b[0].Tool != "fio" {
		t.Fatalf("Bench() = %+v", b)
	}
	checkSampleRead(t, j.Read, b[0])
}

func TestJSONPlusAndCombined(t *testing.T) {
	rp, err := Parse(samples.Read(t, "fio/randread-4k.jsonplus.json"))
	if err != nil {
		t.Fatal(err)
	}
	if rp.Format != "json+" || rp.Jobs[0].Read == nil || len(rp.Jobs[0].Read.ClatPercentiles) == 0 {
		t.Fatalf("json+ %+v", rp)
	}
	rc, err := Parse(samples.Read(t, "fio/randread-4k-normal-plus-json-combined.txt"))
	if err != nil {
		t.Fatal(err)
	}
	rd := rc.Jobs[0].Read
	if rc.Format != "normal,json" || !near(rd.IOPS, 45734.835930) || rd.IOBytes != 565174272 || !near(rd.Clat.Mean, 685.000426345) ||
		!near(rd.ClatPercentiles["99.99"], 39583.744) || rd.RuntimeMs != 3017 || !near(rd.MiBps, 187329887.0/(1<<20)) {
		t.Errorf("combined read %+v", rd)
	}
	if j := rc.Jobs[0]; !near(j.UsrCPU, 8.786472) || j.RuntimeMs != 3016 {
		t.Errorf("combined job %+v", j)
	}
}

func TestSeqReadJSONAndText(t *testing.T) {
	rj, err := Parse(samples.Read(t, "fio/seqread-1m.json"))
	if err != nil {
		t.Fatal(err)
	}
	rt, err := Parse(samples.Read(t, "fio/seqread-1m-normal.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if rj.Jobs[0].Name != "seqread1m" || rj.Jobs[0].Read == nil || rj.Jobs[0].Read.IOPS < 100 {
		t.Errorf("json %+v", rj.Jobs[0].Read)
	}
	tr := rt.Jobs[0].Read
	if rt.Format != "normal" || rt.Version != "fio-3.33" || tr.IOPS != 422 || tr.MiBps != 422 || tr.IOBytes != 2122<<20 || tr.RuntimeMs != 5028 ||
		tr.Clat.Min != 9033 || tr.Clat.Max != 79321 || tr.Clat.Mean != 37763.79 || tr.ClatPercentiles["50"] != 29230 ||
		tr.ClatPercentiles["99.95"] != 78119 || tr.Lat.Mean != 37856.89 || tr.Slat.Mean != 93.10 {
		t.Errorf("text %+v", tr)
	}
	if j := rt.Jobs[0]; j.UsrCPU != 0.38 || j.SysCPU != 4.56 {
		t.Errorf("cpu %+v", j)
	}
}

func TestNormalText(t *testing.T) {
	r, err := Parse(samples.Read(t, "fio/randread-4k-normal.txt"))
	if err != nil {
		t.Fatal(err)
	}
	rd := r.Jobs[0].Read
	if rd.IOPS != 41600 || rd.MiBps != 162 || rd.IOBytes != 812<<20 || rd.RuntimeMs != 5001 || rd.Clat.Mean != 753.55 ||
		rd.Clat.Stddev != 2293.85 || rd.ClatPercentiles["1"] != 247 || rd.ClatPercentiles["99"] != 5342 || rd.ClatPercentiles["99.9"] != 27657 ||
		len(rd.ClatPercentiles) != 17 {
		t.Errorf("read %+v", rd)
	}
	b := r.Total()
	want := bench.Latency{}
	want.Set(bench.Min, 86)
	want.Set(bench.Avg, 753.55)
	want.Set(bench.Max, 81722)
	want.Set(bench.P50, 396)
	want.Set(bench.P90, 717)
	want.Set(bench.P99, 5342)
	want.Set(bench.P999, 27657)
	if b.LatUs != want || b.IOPS != 41600 || b.Runtime != 5001*time.Millisecond || b.MiBps != 162 {
		t.Errorf("Total() = %+v", b)
	}
}

// checkSampleRead asserts the values of fio/randread-4k.json.
func checkSampleRead(t *testing.T, rd *IO, b bench.Result) {
	t.Helper()
	if rd.TotalIOs == 0 || rd.IOBytes != rd.TotalIOs*4096 || rd.RuntimeMs == 0 || rd.Clat.N != rd.TotalIOs {
		t.Errorf("read %+v", rd)
	}
	if !near(b.IOPS, rd.IOPS) || !near(b.LatUs.Avg, rd.Clat.Mean) || !b.LatUs.Has(bench.P99|bench.P50|bench.P999|bench.P90) ||
		!near(b.LatUs.P99, rd.ClatPercentiles["99"]) || rd.Clat.Mean < 1 || rd.Clat.Mean > 1e6 {
		t.Errorf("bench %+v from %+v", b, rd)
	}
}

func TestUnitsText(t *testing.T) {
	in := `job: (groupid=0, jobs=1): err= 0: pid=1: Sun Nov 29 14:03:01 2026
  write: IOPS=1234k, BW=2GiB/s (2147MB/s)(10GiB/5000msec)
    clat (nsec): min=  500, max=12k, avg=900.50, stdev= 10.00
    clat percentiles (nsec):
     |  1.00th=[  502], 50.00th=[  900], 99.00th=[ 1800]
  cpu          : usr=1.00%, sys=2.00%, ctx=1, majf=0, minf=1
`
	r, err := Parse([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	w := r.Jobs[0].Write
	if w.IOPS != 1234000 || w.MiBps != 2048 || w.Clat.Max != 12 || w.Clat.Mean != 0.9005 || w.ClatPercentiles["99"] != 1.8 || w.Clat.Stddev != 0.01 || w.Clat.Min != 0.5 {
		t.Errorf("write %+v", w)
	}
}

func TestErrors(t *testing.T) {
	_, err := Parse(samples.Read(t, "fio/error-bad-ioengine.txt"))
	wantErr(t, err, 1, "fio failed before running any job")
	_, err = Parse(samples.Read(t, "fio/error-enotdir-normal.txt"))
	wantErr(t, err, 5, `job "bad" failed with error 20 (not a directory)`)
	_, err = Parse([]byte(`{"fio version":"fio-3.33","jobs":[{"jobname":"j1","error":0},{"jobname":"j2","error":5}]}`))
	wantErr(t, err, 1, `job "j2" failed with error 5 (input/output error)`)
	_, err = Parse([]byte("x: (groupid=0, jobs=1): err=28 (file:io_u.c:1845, func=io_u error, error=No space left on device): pid=1: now\n"))
	wantErr(t, err, 1, `job "x" failed with error 28`)
	_, err = Parse([]byte("{\n"))
	wantErr(t, err, 1, "invalid JSON")
	_, err = Parse([]byte(`{"fio version":"fio-3.33"}`))
	wantErr(t, err, 1, `no "jobs"`)
	_, err = Parse([]byte("hello\n"))
	wantErr(t, err, 0, "no job results found")
	_, err = Parse([]byte("j: (groupid=0, jobs=1): err= 0: pid=1: now\n  read: IOPS=x, BW=1MiB/s (1MB/s)(1MiB/1msec)\n"))
	wantErr(t, err, 2, `IOPS: "x" is not a number`)
	_, err = Parse([]byte("j: (groupid=0, jobs=1): err= 0: pid=1: now\n  read: IOPS=1, BW=1Mib/s (1MB/s)(1MiB/1msec)\n"))
	wantErr(t, err, 2, `BW: "1Mib/s" is not a bandwidth`)
	_, err = Parse([]byte("j: (groupid=0, jobs=1): err= 0: pid=1: now\n  read: IOPS=1, BW=1MiB/s (1MB/s)(1MiB/1msec)\n    clat (psec): min=1, max=2, avg=1, stdev=0\n"))
	wantErr(t, err, 3, "latency line not in the form")
}

func TestTotalOfSeveralJobs(t *testing.T) {
	in := `{"jobs":[
{"jobname":"a","read":{"io_bytes":4096,"bw_bytes":1048576,"iops":100,"runtime":1000,"total_ios":1,"clat_ns":{"min":1000,"max":3000,"mean":2000,"N":1}}},
{"jobname":"b","write":{"io_bytes":4096,"bw_bytes":2097152,"iops":300,"runtime":2000,"total_ios":3,"clat_ns":{"min":500,"max":9000,"mean":4000,"N":3}}}]}`
	r, err := Parse([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	tot := r.Total()
	if tot.IOPS != 400 || tot.MiBps != 3 || tot.Runtime != 2*time.Second || tot.LatUs.Min != 0.5 || tot.LatUs.Max != 9 ||
		tot.LatUs.Avg != 3.5 || tot.LatUs.Has(bench.P99) {
		t.Errorf("Total() = %+v", tot)
	}
	if got := r.Bench(); len(got) != 2 || got[1].Op != "write" || got[1].Name != "b" {
		t.Errorf("Bench() = %+v", got)
	}
}
