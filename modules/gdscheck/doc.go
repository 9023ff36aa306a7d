// Package gdscheck is the "gdscheck" step module: it runs NVIDIA GPUDirect
// Storage's readiness check, gdscheck -p, on each host and returns what it
// reports as typed outputs (GDS, nvidia_fs and libcufile versions, the
// support of every file system, the RDMA lines, the GPUs, the IOMMU state
// and the platform verification), with the raw output kept as evidence in
// the run record: the answer to "does our storage support GPUDirect?" that
// an operator can hand over.
//
// A missing binary (GDS not installed), a host without a GPU and a leading
// "warn:" line are results, not failures. The module only reads; readiness
// is judged by assert steps on its outputs (runbooks/gds-readiness.hcl).
package gdscheck
