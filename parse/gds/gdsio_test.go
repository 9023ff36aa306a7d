package gds

import (
	"errors"
	"testing"

	"github.com/provadev/prova/parse"
)

func TestGdsioSample(t *testing.T) {
	g, err := ParseGdsio(toolOutput(t, "gds/gdsio-read-gpud-cpuonly-cpu_gpu-and-gdsio_verify.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if g.Verified == nil || !*g.Verified || len(g.Errors) != 0 {
		t.Errorf("verify = %v errors %q", g.Verified, g.Errors)
	}
	if len(g.Results) != 3 {
		t.Fatalf("results = %+v", g.Results)
	}
	want := GdsioResult{IoType: "READ", XferType: "GPUD", Threads: 8, DataSetKiB: 8363008, DataSetTotalKiB: 8388608,
		IOSizeKiB: 1024, ThroughputGiBs: 6.816723, AvgLatencyUs: 1138.933194, Ops: 8167, TotalTimeS: 1.170003}
	if g.Results[0] != want {
		t.Errorf("GPUD = %+v", g.Results[0])
	}
	if g.Results[1].XferType != "CPUONLY" || g.Results[2].XferType != "CPU_GPU" || g.Results[2].Ops != 8172 {
		t.Errorf("results = %+v", g.Results)
	}
	if len(g.Other) != 3 {
		t.Errorf("other = %q", g.Other)
	}
}

func TestGdsioErrors(t *testing.T) {
	_, err := ParseGdsio([]byte("IoType: READ XferType: GPUD Threads: many\n"))
	wantParseError(t, err, "gdsio", 1)
	g, err := ParseGdsio([]byte("Error: IO failed stopping traffic, fd :3 ret:-5 errno:5\nData Verification Failed\n"))
	if err != nil || len(g.Errors) != 2 || g.Verified == nil || *g.Verified || len(g.Results) != 0 {
		t.Errorf("failure lines: %+v, %v", g, err)
	}
}

// gdsio has no empty form; a line it does not know, a terminal line and a
// second copy of a run are errors; an error line may repeat.
func TestGdsioNeverGuesses(t *testing.T) {
	res := "IoType: READ XferType: GPUD Threads: 1 DataSetSize: 65536/65536(KiB) IOSize: 1024(KiB) Throughput: 1.5 GiB/sec, Avg_Latency: 650.1 usecs ops: 64 total_time 0.04 secs\n"
	verify := "gpu index :0,file :/gpfs/fs1/x, gpu buffer alignment :0\nfsync :0,\nBatch mode: 0\nData Verification Success\n"
	for in, line := range map[string]int{
		"": 0, "\n \n": 0,
		"bash: line 1: gdsio: command not found\n":              1,
		"[root@gds01 ~]# gdsio -f x\n" + res:                    1,
		"Welcome to the storage cluster.\n":                     1,
		res + res:                                               2,
		verify + verify:                                         5,
		"Data Verification Success\nData Verification Failed\n": 2,
	} {
		_, err := ParseGdsio([]byte(in))
		var pe *parse.Error
		if !errors.As(err, &pe) || pe.Tool != "gdsio" || pe.Line != line {
			t.Errorf("%q: %v, want an error at line %d", in, err, line)
		}
	}
	fail := "Error: IO failed stopping traffic, fd :3 ret:-5 errno:5\n"
	if g, err := ParseGdsio([]byte(fail + fail)); err != nil || len(g.Errors) != 2 {
		t.Errorf("repeated error line: %v %+v", err, g)
	}
	if g, err := ParseGdsio([]byte(verify)); err != nil || len(g.Other) != 3 || g.Verified == nil || !*g.Verified {
		t.Errorf("gdsio_verify: %v %+v", err, g)
	}
}
