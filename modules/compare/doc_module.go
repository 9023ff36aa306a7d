package compare

import "github.com/provadev/prova/engine/module"

// Doc documents the module.
func (*Compare) Doc() module.Doc {
	return module.Doc{
		Summary: "Puts an RDMA and a TCP benchmark result side by side and judges latency, CPU and bandwidth against a named threshold profile (default prova-default/1). Any failed line fails the step; bandwidth only warns. Runs no command.",
		Args: map[string]string{
			"rdma":                "Small-I/O result over RDMA: a bench step's result (step.bench_rdma), or any object with lat_avg_us and cpu = {soft_pct, busy_cores} (required).",
			"tcp":                 "The same over TCP (required).",
			"seq_rdma":            "Large sequential result over RDMA (mib_s or gbps), for the bandwidth line.",
			"seq_tcp":             "Large sequential result over TCP.",
			"line_rate_gbps":      "Line rate in Gb/s (e.g. the port's rate_gbps from rdma_ports). Without it the bandwidth line warns that shares are not computed.",
			"profile":             "Threshold profile. Default \"prova-default/1\" (docs/thresholds.md).",
			"max_latency_ratio":   "Override: RDMA/TCP latency ratio must be at most this (profile: 0.45).",
			"min_soft_drop_pct":   "Override: RDMA %soft must be at least this many percent below TCP's (profile: 50).",
			"min_bandwidth_share": "Override: share of line rate below which bandwidth warns, 0 to 1 (profile: 0.90).",
		},
		Outputs: map[string]string{
			"profile":         "Profile name used.",
			"latency_ratio":   "RDMA latency / TCP latency (average; p50 when no average).",
			"lat_rdma_us":     "RDMA latency in µs.",
			"lat_tcp_us":      "TCP latency in µs.",
			"soft_rdma_pct":   "RDMA %soft (mpstat, all CPUs).",
			"soft_tcp_pct":    "TCP %soft.",
			"soft_drop_pct":   "How much lower RDMA's %soft is, in percent of TCP's (positive = lower).",
			"busy_cores_rdma": "Busy cores during the RDMA run.",
			"busy_cores_tcp":  "Busy cores during the TCP run.",
			"bw_rdma_mib_s":   "Sequential bandwidth over RDMA, MiB/s.",
			"bw_tcp_mib_s":    "Sequential bandwidth over TCP, MiB/s.",
			"bw_share_rdma":   "RDMA bandwidth / line rate (0 to 1); null without line_rate_gbps.",
			"bw_share_tcp":    "TCP bandwidth / line rate.",
			"latency":         "Verdict of the latency line: pass or fail.",
			"cpu":             "Verdict of the CPU line: pass or fail.",
			"bandwidth":       "Verdict of the bandwidth line: pass or warn (never fail).",
			"verdict":         "fail if any line fails, else warn if any warns, else pass.",
			"table":           "The three lines side by side as preformatted text (also the step's stdout).",
		},
		Example: `step "compare" "rdma_vs_tcp" {
  hosts          = var.initiator
  run_once       = true
  rdma           = step.bench_rdma
  tcp            = step.bench_tcp
  seq_rdma       = step.seq_rdma
  seq_tcp        = step.seq_tcp
  line_rate_gbps = 100
}

step "assert" "rdma_worth_it" {
  hosts     = var.initiator
  run_once  = true
  condition = step.rdma_vs_tcp.latency_ratio <= 0.45
}`,
	}
}
