# Prove, without changing anything, that GPFS verbsRdma is in effect and
# that every node reaches every peer over RDMA: run it after any change or
# cluster expansion.
#
#   prova apply runbooks/gpfs-verbs-verify.hcl -i inventory.hcl \
#     --var 'verbs_ports=["mlx5_0/1","mlx5_1/1"]'
#
# The checks live in lib/ and are shared with gpfs-verbs-rdma.hcl and
# rdma-acceptance.hcl.

runbook {
  description = "Verify GPFS verbsRdma: ports, OFED, effective configuration, and RDMA to every peer (read-only)"
  # Bounds each attempt of every step without a timeout of its own: a
  # hung command fails on its host instead of blocking the run.
  step_timeout = "10m"
}

include "preflight" {
  source = "lib/gpfs-preflight.hcl"
}

include "verify" {
  source = "lib/gpfs-verify.hcl"
}
