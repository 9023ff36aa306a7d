package bench

import "testing"

func f64(v float64) *float64 { return &v }

// Repeated runs report each statistic's median and the spread of IOPS.
func TestMedianAndSpread(t *testing.T) {
	rs := []result{
		{IOPS: f64(100), LatP50: f64(30), CPU: &cpuResult{KernelPct: 2, BusyCores: 1.5, CPUs: 32, Samples: 2}},
		{IOPS: f64(120), LatP50: f64(25), CPU: &cpuResult{KernelPct: 3, BusyCores: 1.7, CPUs: 32, Samples: 2}},
		{IOPS: f64(80), LatP50: f64(35), LatP99: f64(90), CPU: &cpuResult{KernelPct: 1, BusyCores: 1.6, CPUs: 32, Samples: 3}},
	}
	m := median(rs)
	if *m.IOPS != 100 || *m.LatP50 != 30 || m.LatP99 != nil {
		t.Errorf("median: iops %v p50 %v p99 %v (a statistic missing in one run is missing)", *m.IOPS, *m.LatP50, m.LatP99)
	}
	if m.CPU.KernelPct != 2 || m.CPU.BusyCores != 1.6 || m.CPU.Samples != 7 {
		t.Errorf("cpu median: %+v", m.CPU)
	}
	if s := spreadPct(rs); s == nil || *s != 40 {
		t.Errorf("spread = %v, want 40 (%% of the median)", s)
	}
	if spreadPct(rs[:1]) != nil || med([]float64{1, 2, 3, 10}) != 2.5 {
		t.Error("one run has no spread; even counts average the middle two")
	}
}
