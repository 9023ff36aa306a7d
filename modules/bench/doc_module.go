package bench

import "github.com/provadev/prova/engine/module"

// Doc documents the module.
func (*Bench) Doc() module.Doc {
	return module.Doc{
		Summary: "Runs one benchmark on each host (elbencho or fio on a device or file; perftest ib_*_lat/ib_*_bw as server, client and collect steps) with mpstat capturing the host's CPU alongside, and returns IOPS, MiB/s, Gb/s, latency (µs) and CPU as typed outputs.",
		Args: map[string]string{
			"tool":           "elbencho, fio, ib_write_lat, ib_write_bw, ib_read_lat, ib_read_bw, ib_send_lat or ib_send_bw (required).",
			"role":           "perftest only: \"server\" starts the server in the background and returns at once; \"client\" (default) runs against server_address; \"collect\" waits for the server to end (max_wait), stops it if it did not, reads and removes its output.",
			"path":           "elbencho and fio: block device (/dev/nvme1n1) or file to benchmark (required for them).",
			"mode":           "read, write, randread (default) or randwrite. Write modes overwrite the target and plan as a change.",
			"block_size":     "Block size, e.g. \"4K\", \"1M\" (default 4K). perftest: message size (-s), default the tool's.",
			"threads":        "elbencho -t, fio --numjobs. Default 1.",
			"iodepth":        "I/Os in flight per thread. Default 1.",
			"runtime":        "Duration, e.g. \"30s\" (elbencho --timelimit, fio --runtime; default 30s). perftest: -D when set, else the tool's iterations.",
			"size":           "elbencho -s / fio --size: bytes to use (needed for files), e.g. \"10G\".",
			"direct":         "Direct I/O, bypassing the page cache. Default true.",
			"server_address": "perftest client: the server host's address.",
			"rdma_device":    "perftest: RDMA device (-d), e.g. \"mlx5_0\".",
			"max_wait":       "perftest collect: how long to wait for the server to end. Default \"60s\".",
			"extra_args":     "More arguments for the tool, placed before the path or server address.",
			"cpu_capture":    "Run mpstat -P ALL 1 on the same host during the benchmark. Default true.",
		},
		Outputs: map[string]string{
			"tool":        "The tool that ran.",
			"op":          "The mode (randread ...), or latency/bandwidth/server for perftest.",
			"iops":        "I/O operations (perftest: messages) per second.",
			"mib_s":       "Throughput in MiB/s (2^20 bytes).",
			"gbps":        "Throughput in Gb/s (10^9 bits).",
			"lat_avg_us":  "Average latency in µs (elbencho IO latency, fio clat, perftest t_avg); null when not reported.",
			"lat_min_us":  "Minimum latency in µs.",
			"lat_max_us":  "Maximum latency in µs.",
			"lat_p50_us":  "Median latency in µs (perftest t_typical).",
			"lat_p99_us":  "99th percentile latency in µs.",
			"lat_p999_us": "99.9th percentile latency in µs.",
			"runtime_s":   "Elapsed seconds of the measured phase.",
			"cpu":         "mpstat over the run: {soft_pct, sys_pct, usr_pct (all-CPU averages), busy_cores (sum over CPUs of 1 - idle), samples}; null when not captured.",
			"server_pid":  "perftest server: pid of the background server.",
		},
		Example: `step "bench" "bench_rdma" {
  hosts       = var.initiator
  tool        = "elbencho"
  path        = step.connect_rdma.device
  mode        = "randread"
  block_size  = "4K"
  threads     = 16
  iodepth     = 32
  runtime     = "30s"
  on_failure  = "continue"
}

step "bench" "lat_server" {
  hosts = "target1"
  tool  = "ib_write_lat"
  role  = "server"
}

step "bench" "lat_client" {
  hosts          = "client1"
  tool           = "ib_write_lat"
  server_address = "10.68.20.10"
}

step "bench" "lat_collect" {
  hosts = "target1"
  tool  = "ib_write_lat"
  role  = "collect"
}`,
	}
}
