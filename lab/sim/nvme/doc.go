// Package nvme simulates nvme-cli 2.x (it reports 2.3 / libnvme 1.3) on a
// lab node: discover, connect, disconnect, list and list-subsys (text and
// "-o json") and version, against the scenario's NVMe-oF target
// (model.NVMeoFTarget) and the node's local NVMe drives.
//
// A node's controllers live in its "nvme" state file: local drives are
// nvme0.. (PCIe, never disconnected), fabric controllers take the next free
// numbers. Connecting creates DIR/nodes/NODE/root/dev/nvmeN and the
// namespaces' /dev/nvmeXnY (seen by the node's next commands); disconnecting
// removes them. Failures print what nvme-cli and libnvme print (for
// example "Failed to write to /dev/nvme-fabrics: Connection refused" then
// "could not add new controller: ...") and exit 1.
//
// The RDMA transport needs OFED, an HCA with an Active port and no
// rdma_connect fault other than "lossless" on the node; TCP uses the first
// port whose netdev is up, or a 25 Gb/s management NIC. Benchmarks find a
// device's transport and line rate through Lookup and DataPort. The
// package does not simulate other nvme-cli commands (id-ctrl, smart-log,
// connect-all, show-topology).
package nvme
