# Prove, read-only, that GPU nodes are ready for GPUDirect Storage: the
# answer to "does our storage support GPUDirect?" is this run record (the
# gdscheck -p output of every node as evidence, and the measured value of
# every precondition), never a product sheet.
#
#   prova apply runbooks/gds-readiness.hcl -i inventory.hcl \
#     --var filesystem=gpfs --var 'rdma_ports=["mlx5_0/1","mlx5_1/1"]'
#
# Hard preconditions fail the node (step gds_ready): GDS installed, a GPU,
# nvidia_fs loaded, IOMMU disabled, the site's file system supported by GDS
# (GPFS, WekaFS, VAST do; CephFS does not), platform verification, and the
# RDMA ports Active. A GPU whose nearest RDMA NIC is not under the same PCIe
# switch (PIX/PXB) only warns (step gpu_near_nic): GDS still works across
# NODE or SYS, but crossing the host bridges or NUMA nodes loses most of its
# gain, so it is a finding for the deployment document rather than a stop.
# See docs/gds.md.

runbook {
  description = "GPUDirect Storage readiness: gdscheck evidence, nvidia_fs, IOMMU, file system support, GPU/NIC topology, RDMA ports (read-only)"
  # Bounds each attempt of every step without a timeout of its own: a
  # hung command fails on its host instead of blocking the run.
  step_timeout = "5m"
}

include "gds_checks" {
  source = "lib/gds-checks.hcl"
}
