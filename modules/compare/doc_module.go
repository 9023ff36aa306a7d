package compare

import "github.com/provadev/prova/engine/module"

// Doc documents the module.
func (*Compare) Doc() module.Doc {
	return module.Doc{
		Summary: "Puts RDMA and TCP benchmark results side by side and judges latency (p50 at queue depth 1), CPU (kernel CPU per GB/s at line rate), bandwidth and fairness guards against a named threshold profile (default prova-default/2; prova-default/1 still judges as it did). Any failed line fails the step; bandwidth and the guards only warn. Runs no command.",
		Args: map[string]string{
			"rdma":                "High-queue-depth small-block result over RDMA: a bench_block step's result (step.iops_rdma), for the IOPS line and guards (prova-default/1: also latency and CPU, from lat_avg_us and cpu = {soft_pct, busy_cores}) (required).",
			"tcp":                 "The same over TCP (required).",
			"lat_rdma":            "(Every result argument may be a list of passes: figures are then medians.) prova-default/2: the queue-depth-1 result over RDMA (4K random read, threads = 1, iodepth = 1), for the latency line (lat_p50_us, in_flight).",
			"lat_tcp":             "prova-default/2: the same over TCP.",
			"seq_rdma":            "Large sequential result over RDMA (mib_s or gbps), for the bandwidth line and (prova-default/2) the CPU line (cpu = {kernel_pct or soft/sys/irq_pct, busy_cores}).",
			"seq_tcp":             "Large sequential result over TCP.",
			"line_rate_gbps":      "Line rate in Gb/s (e.g. the port's rate_gbps from rdma_ports). Without it the bandwidth line warns that shares are not computed.",
			"link_layer":          "The data port's link layer (rdma_ports link_layer). \"InfiniBand\" means the TCP run went over IPoIB: the table says so and tcp_is_ipoib is true.",
			"profile":             "Threshold profile. Default \"prova-default/2\"; \"prova-default/1\" is still readable (docs/thresholds.md).",
			"max_latency_ratio":   "Override: RDMA/TCP latency ratio must be at most this (profile: 0.45).",
			"min_soft_drop_pct":   "Override: RDMA's CPU figure (prova-default/2: kernel CPU per GB/s; /1: %soft) must be at least this many percent below TCP's (profile: 50).",
			"min_bandwidth_share": "Override: share of line rate below which bandwidth warns, 0 to 1 (profile: 0.90).",
		},
		Outputs: map[string]string{
			"profile":         "Profile name used.",
			"latency_ratio":   "RDMA latency / TCP latency of the statistic lat_stat names.",
			"lat_stat":        "The latency statistic judged: p50 (prova-default/2; avg when the tool gave no p50) or avg (prova-default/1).",
			"lat_rdma_us":     "RDMA latency in µs.",
			"lat_tcp_us":      "TCP latency in µs.",
			"p99_rdma_us":     "RDMA p99 latency in µs (shown, not judged).",
			"p99_tcp_us":      "TCP p99 latency in µs.",
			"iops_rdma":       "IOPS of the high-queue-depth small-block run over RDMA.",
			"iops_tcp":        "The same over TCP.",
			"cpu_run":         "Which run the CPU line comes from: sequential (prova-default/2) or small-block (prova-default/1).",
			"kernel_rdma_pct": "RDMA %soft + %sys + %irq (all-CPU average) in the CPU run.",
			"kernel_tcp_pct":  "TCP %soft + %sys + %irq.",
			"cpu_drop_pct":    "How much lower RDMA's judged CPU figure is, in percent of TCP's (prova-default/2: kernel CPU per GB/s; /1: %soft).",
			"iops":            "Verdict of the IOPS and fairness line: pass or warn (prova-default/2; pass under /1).",
			"warnings":        "Each warning line's name and message.",
			"tcp_is_ipoib":    "True when link_layer is InfiniBand: the TCP figures are IPoIB's.",
			"soft_rdma_pct":   "RDMA %soft (mpstat, all CPUs).",
			"soft_tcp_pct":    "TCP %soft.",
			"soft_drop_pct":   "How much lower RDMA's %soft is in the CPU run, in percent of TCP's (positive = lower), not normalised.",
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
			"table":           "The lines side by side, each with the run it comes from, and the warnings, as preformatted text (also the step's stdout).",
		},
		Example: `step "compare" "rdma_vs_tcp" {
  hosts          = var.initiator
  run_once       = true
  lat_rdma       = step.lat_rdma
  lat_tcp        = step.lat_tcp
  rdma           = step.iops_rdma
  tcp            = step.iops_tcp
  seq_rdma       = step.seq_rdma
  seq_tcp        = step.seq_tcp
  line_rate_gbps = 100
}

step "assert" "rdma_worth_it" {
  hosts     = var.initiator
  run_once  = true
  condition = step.rdma_vs_tcp.latency_ratio <= 0.40
}`,
	}
}
