package gds

import "testing"

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
