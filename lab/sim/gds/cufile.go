package gds

import (
	"fmt"
	"strings"

	"github.com/provadev/prova/lab/model"
)

// CufileJSON is the node's /etc/cufile.json as the GDS packages install it
// (NVIDIA's default file: JSON with // comments, trimmed to the sections
// that matter here), with rdma_dev_addr_list set to the addresses of the
// node's Active RDMA ports unless the scenario asks for the file as
// installed ("default") or with the first port's address only
// ("first_nic").
// ok is false when the node has no GDS or the scenario says "absent".
func CufileJSON(n *model.Node) (text string, ok bool) {
	if n.GDS == nil || n.Cufile == "absent" {
		return "", false
	}
	var list []string
	switch n.Cufile {
	case "default":
	case "first_nic":
		if a := n.RDMAAddresses(); len(a) > 0 {
			list = a[:1]
		}
	default:
		list = n.RDMAAddresses()
	}
	addrs := "[]"
	if len(list) > 0 {
		q := make([]string, len(list))
		for i, a := range list {
			q[i] = fmt.Sprintf("%q", a)
		}
		addrs = "[ " + strings.Join(q, ", ") + " ]"
	}
	force := ""
	if n.Cufile == "force_compat" {
		force = "\n            \"force_compat_mode\": true,"
	}
	var b strings.Builder
	fmt.Fprintf(&b, `{
    // NOTE : Application can override custom configuration via export CUFILE_ENV_PATH_JSON=<filepath>
    // e.g : export CUFILE_ENV_PATH_JSON="/home/<xxx>/cufile.json"
    "logging": {
            // log directory, if not enabled will create log file under current working directory
            //"dir": "/home/<xxxx>",
            // NOTICE|ERROR|WARN|INFO|DEBUG|TRACE (in decreasing order of severity)
            "level": "ERROR"
    },
    "profile": {
            // nvtx profiling on/off
            "nvtx": false,
            // cufile stats level(0-3)
            "cufile_stats": 0
    },
    "properties": {
            // limit on maximum device memory size that can be pinned for a given process
            "max_device_pinned_mem_size_kb": 33554432,
            "use_poll_mode": false,
            "poll_mode_max_size_kb": 4,
            "use_pci_p2pdma": false,
            "allow_compat_mode": true,%s
            "gds_rdma_write_support": true,
            // client-side rdma addr list for user-space file-systems(e.g ["10.0.1.0", "10.0.2.0"])
            "rdma_dev_addr_list": %s,
            "rdma_load_balancing_policy": "RoundRobin",
            "rdma_dynamic_routing": false,
            "rdma_dynamic_routing_order": ["GPU_MEM_NVLINKS", "GPU_MEM", "SYS_MEM", "P2P"]
    },
    "fs": {
            "generic": {
                    "posix_unaligned_writes": false
            },
            "gpfs": {
                    "gds_write_support": true,
                    "gds_async_support": true
                    //"rdma_dev_addr_list": [],
                    //"mount_table": {}
            },
            "weka": {
                    "rdma_write_support": false
            }
    }
}
`, force, addrs)
	return b.String(), true
}

// forceCompat reports whether the node's cufile.json forces compatibility
// mode (what gdscheck's CUFILE CONFIGURATION shows).
func forceCompat(n *model.Node) bool { return n.Cufile == "force_compat" }
