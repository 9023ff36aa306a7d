// Package gputopology is the "gpu_topology" step module: it runs
// nvidia-smi topo -m on each host and returns the PCIe/NVLink matrix, the
// nearest RDMA NIC of every GPU with its relation, whether every GPU has a
// NIC under the same PCIe switch (PIX or PXB: what GPUDirect Storage needs
// to skip the root complex) and which GPUs only reach a NIC across the host
// bridge or NUMA nodes (NODE, SYS: most of GDS's gain is lost there).
//
// A host without nvidia-smi or without a usable GPU is a result (has_gpu =
// false), not a failure. The module only reads; thresholds belong in
// assert steps.
package gputopology
