package compare

import (
	"strings"
	"testing"
)

// What the nvmeof runbook gives the compare step under prova-default/2: a
// queue-depth-1 run per transport for latency, the 16 x 32 4K run for
// IOPS, and the 1M sequential run (both at line rate) for bandwidth and
// CPU. The 4K run is device-bound: both transports reach 1M IOPS.
const healthyV2 = `
lat_rdma = { in_flight = 1, lat_p50_us = 24.1, lat_avg_us = 24.6, lat_p99_us = 31, iops = 40600 }
lat_tcp  = { in_flight = 1, lat_p50_us = 86.0, lat_avg_us = 88.0, lat_p99_us = 130, iops = 11300 }
rdma     = { in_flight = 512, iops = 1500000, lat_p50_us = 340, cpu = { kernel_pct = 2.0, busy_cores = 2, hottest_core_pct = 60 } }
tcp      = { in_flight = 512, iops = 1080000, lat_p50_us = 470, cpu = { kernel_pct = 24, busy_cores = 10, hottest_core_pct = 80 } }
seq_rdma = { mib_s = 11150, cpu = { soft_pct = 0.9, sys_pct = 0.5, irq_pct = 0.1, busy_cores = 1.6, hottest_core_pct = 55 } }
seq_tcp  = { mib_s = 11030, cpu = { soft_pct = 8.0, sys_pct = 15.6, irq_pct = 0.5, busy_cores = 10.4, hottest_core_pct = 78 } }
line_rate_gbps = 100
`

func TestV2Verdicts(t *testing.T) {
	for _, c := range []struct {
		name, body, want string
		failed           bool
		message          string
	}{
		{"healthy", healthyV2, "pass pass pass pass", false, ""},
		// Issue 19.1: the latency of a run with 512 in flight is the
		// queue's (>= 512 / IOPS), not the transport's.
		{"latency from the high queue depth run", withoutLines(healthyV2, "lat_rdma", "lat_tcp"),
			"fail pass pass fail", true, "ran with 512 I/Os in flight: by Little's law"},
		{"latency ratio too high at qd1", strings.Replace(healthyV2, "lat_p50_us = 24.1", "lat_p50_us = 45", 1), "fail pass pass fail", true, "RDMA latency is 0.52 of TCP's"},
		// p50 is judged, not the average.
		{"avg high but p50 fine", strings.Replace(healthyV2, "lat_avg_us = 24.6", "lat_avg_us = 60", 1), "pass pass pass pass", false, ""},
		// Issue 19.2: %soft alone would pass, kernel CPU (sys included) per GB/s does not.
		{"tcp work in kworkers", strings.Replace(healthyV2, "soft_pct = 0.9, sys_pct = 0.5", "soft_pct = 0.9, sys_pct = 14", 1), "pass fail pass fail", true, "only"},
		// The same CPU moving half the bytes costs twice as much per GB/s.
		{"rdma at half the bandwidth", strings.Replace(strings.Replace(healthyV2, "mib_s = 11150", "mib_s = 1100", 1), "busy_cores = 1.6", "busy_cores = 1.5", 1),
			"pass fail warn fail", true, "per GB/s 1.3 is only 38 % below"},
		// iowait is not busy: a figure of busy cores without it passes.
		{"cpu-bound tcp warns", strings.Replace(healthyV2, "hottest_core_pct = 78", "hottest_core_pct = 100", 1), "pass pass pass warn", false, "seq_tcp is CPU-bound"},
		{"same IOPS ceiling warns", strings.Replace(healthyV2, "iops = 1500000", "iops = 1050000", 1), "pass pass pass warn", false, "same IOPS ceiling"},
		{"spread warns", strings.Replace(healthyV2, "iops = 40600 }", "iops = 40600, spread_pct = 25 }", 1), "pass pass pass warn", false, "lat_rdma: repeated runs spread 25 %"},
		{"no sequential cpu fails", strings.Replace(strings.Replace(healthyV2, "mib_s = 11150, cpu = {", "mib_s = 11150, x = {", 1), "mib_s = 11030, cpu = {", "mib_s = 11030, x = {", 1),
			"pass fail pass fail", true, "not captured over RDMA and TCP in seq_rdma/seq_tcp"},
	} {
		t.Run(c.name, func(t *testing.T) {
			resp := apply(t, c.body)
			if got := verdicts(resp) + ""; got != c.want {
				t.Errorf("verdicts (latency cpu bandwidth overall) = %q, want %q\n%s", got, c.want, resp.Message)
			}
			if resp.Failed != c.failed {
				t.Errorf("failed = %t, want %t", resp.Failed, c.failed)
			}
			if !strings.Contains(resp.Message, c.message) {
				t.Errorf("message %q does not contain %q", resp.Message, c.message)
			}
			if len(resp.Checks) != 4 {
				t.Fatalf("checks = %v", resp.Checks)
			}
		})
	}
}

func TestV2Table(t *testing.T) {
	resp := apply(t, healthyV2)
	if p := resp.Outputs.GetAttr("profile").AsString(); p != "prova-default/2" {
		t.Errorf("default profile = %s", p)
	}
	for name, want := range map[string]float64{"latency_ratio": 0.2802, "iops_rdma": 1500000, "iops_tcp": 1080000, "kernel_tcp_pct": 24.1, "kernel_rdma_pct": 1.5} {
		if got := number(t, resp, name); got != want {
			t.Errorf("%s = %v, want %v", name, got, want)
		}
	}
	if got := resp.Outputs.GetAttr("cpu_run").AsString(); got != "sequential" {
		t.Errorf("cpu_run = %q", got)
	}
	tbl := resp.Outputs.GetAttr("table").AsString()
	for _, s := range []string{"latency (p50)", "4K, 1 in flight", "latency (p99)", "130.0 µs", "IOPS", "4K, high queue depth", "1080000",
		"CPU %soft+%sys+%irq", "sequential", "per GB/s", "verdict: pass (profile prova-default/2)"} {
		if !strings.Contains(tbl, s) {
			t.Errorf("table lacks %q:\n%s", s, tbl)
		}
	}
	t.Logf("\n%s", tbl)
}

func withoutLines(body string, prefixes ...string) string {
	var out []string
	for _, l := range strings.Split(body, "\n") {
		keep := true
		for _, p := range prefixes {
			if strings.HasPrefix(l, p+" ") {
				keep = false
			}
		}
		if keep {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

// Issue 19.7: on an InfiniBand fabric "TCP" is IPoIB; the report says so.
func TestIPoIBNote(t *testing.T) {
	resp := apply(t, healthyV2+"link_layer = \"InfiniBand\"\n")
	if !resp.Outputs.GetAttr("tcp_is_ipoib").True() || !strings.Contains(resp.Outputs.GetAttr("table").AsString(), "TCP over IPoIB") {
		t.Errorf("no IPoIB note:\n%s", resp.Outputs.GetAttr("table").AsString())
	}
	if apply(t, healthyV2+"link_layer = \"Ethernet\"\n").Outputs.GetAttr("tcp_is_ipoib").True() {
		t.Error("Ethernet is not IPoIB")
	}
}

// Issue 19.3: the runbook runs each transport in two passes (TCP, RDMA,
// RDMA, TCP); compare takes a list per argument and judges the medians.
func TestPassesAreMedians(t *testing.T) {
	body := strings.NewReplacer(
		"lat_rdma = { in_flight = 1, lat_p50_us = 24.1,", "lat_rdma = [{ in_flight = 1, lat_p50_us = 60, iops = 16000 }, { in_flight = 1, lat_p50_us = 24.1,",
		"lat_p99_us = 31, iops = 40600 }", "lat_p99_us = 31, iops = 40600 }, { in_flight = 1, lat_p50_us = 24.5, iops = 40000 }]",
	).Replace(healthyV2)
	resp := apply(t, body)
	if got := number(t, resp, "lat_rdma_us"); got != 24.5 {
		t.Errorf("lat_rdma_us = %v, want the median 24.5 of three passes", got)
	}
	if v := resp.Outputs.GetAttr("iops").AsString(); v != "warn" || !strings.Contains(resp.Message, "lat_rdma across passes: repeated runs spread") {
		t.Errorf("iops line %s: %s", v, resp.Message)
	}
}
