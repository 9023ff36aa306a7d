// Package nvtopo reads `nvidia-smi topo -m`: the matrix of PCIe/NVLink
// relations among GPUs and NICs, the CPU/NUMA affinity columns, and the
// "NIC Legend" that newer drivers print to map NIC0.. to RDMA device names
// (older drivers name the NIC columns mlx5_0.. directly).
//
// It answers "which NIC is nearest to each GPU, and how near" (NearestNICs)
// and "how are these two devices connected" (Matrix.Relation). Relations rank
// X < PIX < PXB < PHB < NODE < SYS (SOC, the old name of SYS, ranks as SYS);
// NV# (bonded NVLinks) only occurs between GPUs.
//
// The package does not run nvidia-smi and does not judge whether a topology
// is good enough for GPUDirect; a host without a usable GPU or driver gives
// a Matrix with NoGPU set rather than an error.
package nvtopo
