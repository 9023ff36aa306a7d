package bench

import "github.com/provadev/prova/engine/module"

// outputDocs are the outputs of every module of the package.
var outputDocs = map[string]string{
	"tool":        "The tool that ran.",
	"op":          "The mode (randread ...), or latency/bandwidth/server for perftest.",
	"block_size":  "Block size in bytes (bench_block).",
	"in_flight":   "I/Os in flight: threads x iodepth (bench_block). By Little's law average latency is at least in_flight / iops, so only a run with 1 in flight measures the transport's latency.",
	"iops":        "I/O operations (perftest: messages) per second.",
	"mib_s":       "Throughput in MiB/s (2^20 bytes).",
	"gbps":        "Throughput in Gb/s (10^9 bits).",
	"lat_avg_us":  "Average latency in µs (elbencho IO latency, fio clat, perftest t_avg); null when not reported.",
	"lat_min_us":  "Minimum latency in µs.",
	"lat_max_us":  "Maximum latency in µs.",
	"lat_p50_us":  "Median latency in µs (elbencho --latpercent, fio clat percentiles, perftest t_typical).",
	"lat_p99_us":  "99th percentile latency in µs.",
	"lat_p999_us": "99.9th percentile latency in µs.",
	"runtime_s":   "Elapsed seconds of the measured phase.",
	"cpu":         "mpstat over the run: {soft_pct, sys_pct, irq_pct, usr_pct, iowait_pct (all-CPU averages), kernel_pct (soft + sys + irq), busy_cores (sum over CPUs of 100 - %idle - %iowait, /100), hottest_core_pct (the busiest CPU's busy %), cpus, samples}; null when not captured. With repeat, each is the median over the runs.",
	"runs":        "How many runs the statistics are the median of (bench_block repeat).",
	"spread_pct":  "(max - min) / median of IOPS over the runs, in percent; null for one run.",
	"server_pid":  "perftest_server: pid of the background server.",
}

// Doc documents the module.
func (*Block) Doc() module.Doc {
	return module.Doc{
		Summary: "Runs elbencho or fio on a block device or file on each host, repeat times, with mpstat capturing the host's CPU alongside, and returns the median IOPS, MiB/s, Gb/s, latency (µs, with percentiles) and CPU as typed outputs. Read modes only read; write modes overwrite the target.",
		Args: map[string]string{
			"tool":        "elbencho or fio (required).",
			"path":        "Block device (/dev/nvme1n1) or file to benchmark (required).",
			"mode":        "read, write, randread (default) or randwrite. Write modes overwrite the target and plan as a change.",
			"block_size":  "Block size, e.g. \"4K\", \"1M\" (default 4K).",
			"threads":     "elbencho -t, fio --numjobs. Default 1.",
			"iodepth":     "I/Os in flight per thread. Default 1. Latency is only the transport's at threads = 1, iodepth = 1.",
			"runtime":     "Duration, e.g. \"30s\" (elbencho --timelimit, fio --runtime; default 30s).",
			"size":        "elbencho -s / fio --size: bytes to use (needed for files), e.g. \"10G\".",
			"direct":      "Direct I/O, bypassing the page cache. Default true.",
			"repeat":      "Run the benchmark this many times (1 to 20, default 1) and report each statistic's median and the spread of IOPS.",
			"numa_node":   "Pin the benchmark to this NUMA node (numactl --cpunodebind=N --membind=N), e.g. the data NIC's node, so neither transport pays for crossing sockets. Default: not pinned.",
			"extra_args":  "More arguments for the tool, placed before the path.",
			"cpu_capture": "Run mpstat -P ALL 1 on the same host during the benchmark. Default true.",
		},
		Outputs: outputDocs,
		Example: `step "bench_block" "lat_rdma" {
  hosts      = var.initiator
  tool       = "elbencho"
  path       = step.connect_rdma.device
  mode       = "randread"
  block_size = "4K"
  threads    = 1
  iodepth    = 1
  runtime    = "30s"
  repeat     = 3
  on_failure = "continue"
}`,
	}
}
