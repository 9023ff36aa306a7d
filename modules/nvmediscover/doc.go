// Package nvmediscover is the "nvme_discover" step module: it asks an
// NVMe-oF target's discovery controller which subsystems it offers over one
// transport (nvme discover -t T -a A -s P -o json, the text form where JSON
// is not available) and returns the discovery log records and subsystem
// NQNs as typed outputs.
//
// A discovery that fails (connection refused, no RDMA path to the target,
// the nvme-fabrics module missing) is a failed step whose message says which
// of these it was (nvme.ClassifyError), never an empty success. The module
// only reads: it connects to the discovery controller, which nvme-cli
// disconnects again, and changes nothing on the host.
package nvmediscover
