package bench

import "github.com/provadev/prova/engine/module"

var perftestTool = "ib_write_lat, ib_write_bw, ib_read_lat, ib_read_bw, ib_send_lat or ib_send_bw (required)."

const perftestExample = `step "perftest_server" "lat_server" {
  hosts = "target1"
  tool  = "ib_write_lat"
}

step "perftest_client" "lat_client" {
  hosts          = "client1"
  tool           = "ib_write_lat"
  server_address = "10.68.20.10"
}

step "perftest_collect" "lat_collect" {
  hosts = "target1"
  tool  = "ib_write_lat"
}`

// Doc documents the module.
func (*PerftestServer) Doc() module.Doc {
	return module.Doc{
		Summary: "Starts a perftest server (ib_write_lat, ib_write_bw ...) in the background on each host (setsid, output to a file under /tmp) and returns at once with its pid; no change when one is running. Pair it with perftest_client on the other host and perftest_collect afterwards.",
		Args: map[string]string{
			"tool":        perftestTool,
			"rdma_device": "RDMA device (-d), e.g. \"mlx5_0\".",
			"block_size":  "Message size (-s), e.g. \"4K\"; default the tool's.",
			"runtime":     "Duration (-D) when set; else the tool's iterations.",
			"extra_args":  "More arguments for the tool.",
		},
		Outputs: outputDocs,
		Example: perftestExample,
	}
}

// Doc documents the module.
func (*PerftestClient) Doc() module.Doc {
	return module.Doc{
		Summary: "Runs a perftest client (ib_write_lat, ib_write_bw ...) against a server started by perftest_server, with mpstat capturing the host's CPU alongside, and returns latency (µs) or bandwidth and message rate as typed outputs.",
		Args: map[string]string{
			"tool":           perftestTool,
			"server_address": "The server host's address (required).",
			"rdma_device":    "RDMA device (-d), e.g. \"mlx5_0\".",
			"block_size":     "Message size (-s), e.g. \"4K\"; default the tool's.",
			"runtime":        "Duration (-D) when set; else the tool's iterations.",
			"extra_args":     "More arguments for the tool, placed before the server address.",
			"cpu_capture":    "Run mpstat -P ALL 1 on the same host during the run. Default true.",
		},
		Outputs: outputDocs,
		Example: perftestExample,
	}
}

// Doc documents the module.
func (*PerftestCollect) Doc() module.Doc {
	return module.Doc{
		Summary: "Waits for the perftest server started by perftest_server to end (max_wait), stops it if it did not, reads and removes its output, and returns the server side's results.",
		Args: map[string]string{
			"tool":     perftestTool,
			"max_wait": "How long to wait for the server to end. Default \"60s\".",
		},
		Outputs: outputDocs,
		Example: perftestExample,
	}
}
