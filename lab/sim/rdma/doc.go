// Package rdma simulates the RDMA inspection tools of infiniband-diags,
// rdma-core, iproute2 and MLNX_OFED: ibstat, ibstatus, ibdev2netdev,
// ofed_info, ibv_devinfo, ibv_devices and rdma link. Each prints what the
// real tool prints for the node's model (package lab/model), including the
// real error text and exit status on a node without an HCA. OFED-only tools
// (ofed_info, ibdev2netdev) are not installed on a node without OFED.
//
// Whitespace follows the real tools: ibstat, ibstatus, ibv_devinfo and
// ibv_devices indent and separate with TABs; published samples that show
// spaces are the same text after tab expansion.
package rdma

import "github.com/provadev/prova/lab/model"

func hasOFED(n *model.Node) bool { return n.OFED != "" }
