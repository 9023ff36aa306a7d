package gds

// The DRIVER CONFIGURATION entries gdscheck lists, in its order: releases
// before 1.16 lead with NVMe P2PDMA, 1.16 adds VIRTIOFS.
var (
	driversOld = []string{"NVMe P2PDMA", "NVMe", "NVMeOF", "SCSI", "ScaleFlux CSD", "NVMesh", "DDN EXAScaler",
		"IBM Spectrum Scale", "NFS", "BeeGFS", "ScaTeFS", "WekaFS", "Userspace RDMA"}
	driversNew = []string{"NVMe", "NVMeOF", "SCSI", "ScaleFlux CSD", "NVMesh", "DDN EXAScaler",
		"IBM Spectrum Scale", "NFS", "BeeGFS", "ScaTeFS", "VIRTIOFS", "WekaFS", "Userspace RDMA"}
)

// newCapability is the 1.16+ capability list of a file system that
// GPUDirect Storage serves: the parallel file systems that went the dma-buf
// way show dmabuf, the others nvfs.
var newCapability = map[string]string{
	"NVMe":               "nvfs, compat",
	"IBM Spectrum Scale": "dmabuf, compat",
	"WekaFS":             "dmabuf, compat",
	"NFS":                "nvfs, compat",
	"DDN EXAScaler":      "nvfs, compat",
	"BeeGFS":             "nvfs, compat",
}

// cufileProps are the CUFILE CONFIGURATION lines (name, value) each
// vocabulary prints: cufile.json's defaults of that release.
var cufileOld = [][2]string{
	{"properties.use_pci_p2pdma", "false"}, {"properties.use_compat_mode", "false"},
	{"properties.force_compat_mode", "false"}, {"properties.gds_rdma_write_support", "true"},
	{"properties.use_poll_mode", "false"}, {"properties.poll_mode_max_size_kb", "4"},
	{"properties.max_batch_io_size", "128"}, {"properties.max_batch_io_timeout_msecs", "5"},
	{"properties.max_direct_io_size_kb", "16384"}, {"properties.max_device_cache_size_kb", "131072"},
	{"properties.per_buffer_cache_size_kb", "1024"}, {"properties.max_device_pinned_mem_size_kb", "33554432"},
	{"properties.posix_pool_slab_size_kb", "4 1024 16384"}, {"properties.posix_pool_slab_count", "128 64 64"},
	{"properties.rdma_peer_affinity_policy", "RoundRobin"}, {"properties.rdma_dynamic_routing", "0"},
	{"fs.generic.posix_unaligned_writes", "false"}, {"fs.lustre.posix_gds_min_kb:", "0"},
	{"fs.beegfs.posix_gds_min_kb:", "0"}, {"fs.scatefs.posix_gds_min_kb:", "0"},
	{"fs.weka.rdma_write_support:", "false"}, {"fs.gpfs.gds_write_support:", "false"},
	{"fs.gpfs.gds_async_support:", "true"}, {"profile.nvtx", "false"}, {"profile.cufile_stats", "0"},
	{"miscellaneous.api_check_aggressive", "false"}, {"execution.max_io_threads", "4"},
	{"execution.max_io_queue_depth", "128"}, {"execution.parallel_io", "true"},
	{"execution.min_io_threshold_size_kb", "8192"}, {"execution.max_request_parallelism", "4"},
	{"properties.force_odirect_mode", "false"}, {"properties.prefer_iouring", "false"},
}

var cufileNew = [][2]string{
	{"properties.use_pci_p2pdma", "false"}, {"properties.use_compat_mode", "true"},
	{"properties.force_compat_mode", "false"}, {"properties.gds_rdma_write_support", "true"},
	{"properties.use_poll_mode", "false"}, {"properties.poll_mode_max_size_kb", "4"},
	{"properties.max_batch_io_size", "128"}, {"properties.max_batch_io_timeout_msecs", "5"},
	{"properties.max_direct_io_size_kb", "16384"}, {"properties.max_device_cache_size_kb", "131072"},
	{"properties.per_buffer_cache_size_kb", "1024"}, {"properties.max_device_pinned_mem_size_kb", "33554432"},
	{"properties.posix_pool_slab_size_kb", "4 1024 16384"}, {"properties.posix_pool_slab_count", "128 64 64"},
	{"properties.rdma_peer_affinity_policy", "RoundRobin"}, {"properties.rdma_dynamic_routing", "0"},
	{"fs.generic.posix_unaligned_writes", "false"}, {"fs.lustre.posix_gds_min_kb:", "0"},
	{"fs.lustre.use_pci_p2pdma", "false"}, {"fs.beegfs.posix_gds_min_kb:", "0"},
	{"fs.beegfs.use_pci_p2pdma", "false"}, {"fs.scatefs.posix_gds_min_kb:", "0"},
	{"fs.scatefs.use_pci_p2pdma", "false"}, {"fs.weka.rdma_write_support:", "false"},
	{"fs.nfs.use_pci_p2pdma", "false"}, {"fs.gpfs.gds_write_support:", "false"},
	{"fs.gpfs.gds_async_support:", "true"}, {"fs.gpfs.use_pci_p2pdma", "false"},
	{"fs.virtiofs.use_pci_p2pdma", "false"}, {"profile.cufile_stats", "0"},
	{"miscellaneous.api_check_aggressive", "false"}, {"execution.max_io_threads", "4"},
	{"execution.max_io_queue_depth", "128"}, {"execution.parallel_io", "true"},
	{"execution.min_io_threshold_size_kb", "8192"}, {"execution.max_request_parallelism", "4"},
	{"properties.force_odirect_mode", "false"}, {"properties.prefer_iouring", "false"},
	{"block.raid.use_pci_p2pdma", "false"}, {"block.nvme.use_pci_p2pdma", "false"},
	{"block.nvmeof.use_pci_p2pdma", "false"},
}

// cudaDriver is the "Cuda Driver Version Installed" of each release's CUDA.
var cudaDriver = map[string]string{"1.14": "12090", "1.15": "13000", "1.16": "13010"}

// barSizeMiB is the BAR1 size gdscheck reports for a GPU model.
func barSizeMiB(model string) int {
	switch {
	case contains(model, "L4"):
		return 32768
	case contains(model, "80GB"), contains(model, "H100"), contains(model, "H200"), contains(model, "B200"):
		return 131072
	}
	return 65536
}
