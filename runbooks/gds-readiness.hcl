# Prove, read-only, that GPU nodes are ready for GPUDirect Storage: the
# answer to "does our storage support GPUDirect?" is this run record (the
# gdscheck -p output of every node as evidence, and the measured value of
# every precondition), never a product sheet.
#
#   prova apply runbooks/gds-readiness.hcl -i inventory.hcl \
#     --var filesystem=gpfs --var 'rdma_ports=["mlx5_0/1","mlx5_1/1"]' \
#     --var gds_test_file=/gpfs/fs0/gds-check/64M.bin
#
# Hard preconditions fail the node (step gds_ready): GDS installed, a GPU,
# nvidia_fs loaded, the IOMMU as NVIDIA wants it on the platform, the site's
# file system supported by GDS (GPFS, WekaFS, VAST do; CephFS does not),
# platform verification, the RDMA ports Active, and a data path that is not
# compatibility mode. ACS redirecting between a GPU and its NIC fails too
# (gpu_nic_acs); on GPFS, IBM's own GDS settings (gpfs_gds_settings); with
# gds_test_file, a gdsio read whose bytes nvidia-fs did not count as
# GPU-direct (gds_mount_read). A GPU whose nearest RDMA NIC (of those cuFile
# uses) is not under the same PCIe switch (PIX/PXB) only warns (step
# gpu_near_nic): GDS still works across NODE or SYS, but crossing the host
# bridges or NUMA nodes loses most of its gain, so it is a finding for the
# deployment document rather than a stop. See docs/gds.md.

runbook {
  description = "GPUDirect Storage readiness: gdscheck evidence, nvidia_fs, IOMMU, file system support, GPU/NIC topology and ACS, RDMA ports, GPFS's GDS settings, a per-mount read with nvidia-fs counters (read-only)"
  # Bounds each attempt of every step without a timeout of its own: a
  # hung command fails on its host instead of blocking the run.
  step_timeout = "5m"
}

include "gds_checks" {
  source = "lib/gds-checks.hcl"
}
