# RDMA acceptance: the evidence for the deployment document, and the suite
# to re-run after every cluster expansion, compared with the baseline.
#
#   prova apply runbooks/rdma-acceptance.hcl -i inventory.hcl \
#     --var 'verbs_ports=["mlx5_0/1"]' \
#     --var run_nvmeof=true --var target_address=10.68.20.10 --var nqn=nqn.2024-01.dev.wutz:target1
#   prova report latest --format md,html,junit,json
#
# After an expansion, against the first run (kept as the baseline):
#
#   prova apply runbooks/rdma-acceptance.hcl -i inventory.hcl ... --baseline RUN [--only-new]
#
# Paths a site does not run are switched off with run_gpfs, run_nvmeof,
# run_latency and run_gds; the checks are the shipped runbooks' own,
# included from lib/ (nothing is copied).

runbook {
  description = "RDMA acceptance: ports and OFED, GPFS verbs and every node's RDMA peers, NVMe-oF RDMA vs TCP (latency, CPU, bandwidth), pairwise ib_write_lat, GDS readiness"
  # Bounds each attempt of every step without a timeout of its own: a
  # hung command fails on its host instead of blocking the run.
  step_timeout = "10m"
}

variable "run_gpfs" {
  type        = bool
  default     = true
  description = "GPFS: ports, OFED, effective verbs configuration, every node's RDMA peers, cause of every fallback"
}

variable "run_latency" {
  type        = bool
  default     = true
  description = "pairwise ib_write_lat between nodes, outliers named against the cluster median"
}

variable "run_nvmeof" {
  type        = bool
  default     = false
  description = "NVMe-oF over RDMA vs TCP, the three lines side by side (needs target_address and nqn)"
}

variable "run_gds" {
  type        = bool
  default     = null
  description = "GPUDirect Storage readiness; default: when the inventory has a group gpu"
}

variable "verbs_ports" {
  type        = list(string)
  default     = []
  description = "verbsPorts entries, device/port (mlx5_0/1)"
  validation {
    condition     = !var.run_gpfs || length(var.verbs_ports) > 0
    error_message = "run_gpfs needs verbs_ports, e.g. --var 'verbs_ports=[\"mlx5_0/1\"]'."
  }
}

variable "target_address" {
  type        = string
  default     = ""
  description = "NVMe-oF target address (traddr)"
  validation {
    condition     = !var.run_nvmeof || var.target_address != ""
    error_message = "run_nvmeof needs target_address."
  }
}

variable "nqn" {
  type        = string
  default     = ""
  description = "NVMe-oF subsystem NQN"
  validation {
    condition     = !var.run_nvmeof || var.nqn != ""
    error_message = "run_nvmeof needs nqn."
  }
}

variable "latency_timeout" {
  type        = string
  default     = "1h"
  description = "Bound on the latency step on one node (every pair it measures, one after another)"
}

variable "latency_mode" {
  type        = string
  default     = "reference"
  description = "reference: every node against one reference node; all: every pair"
}

variable "latency_reference" {
  type        = string
  default     = ""
  description = "reference node for latency_mode = reference (default: the first node)"
}

variable "max_lat_us" {
  type        = number
  default     = 10
  description = "ib_write_lat average above this fails a node (RDMA is single-digit µs)"
}

variable "outlier_factor" {
  type        = number
  default     = 2
  description = "a node above this factor of the cluster median latency fails"
}

locals {
  run_gds = var.run_gds != null ? var.run_gds : try(length(group.gpu) > 0, false)
}

include "gpfs_preflight" {
  source = "lib/gpfs-preflight.hcl"
  when   = var.run_gpfs
}

include "gpfs_verify" {
  source = "lib/gpfs-verify.hcl"
  when   = var.run_gpfs
}

# Each node against the reference (or every pair), never two tests on one
# node at once; a node's data-network address comes from its inventory var
# data_address when it has one.
step "rdma_latency" "pairs" {
  hosts          = local.gpfs_nodes
  when           = var.run_latency
  mode           = var.latency_mode
  reference      = var.latency_reference != "" ? var.latency_reference : null
  max_lat_us     = var.max_lat_us
  outlier_factor = var.outlier_factor
  addresses      = { for h in inventory.hosts : h => try(inventory.host[h].vars.data_address, h) }
  timeout        = var.latency_timeout
  on_failure     = "continue"
  tags           = ["latency"]
}

include "nvmeof" {
  source = "lib/nvmeof-compare.hcl"
  when   = var.run_nvmeof
}

include "gds" {
  source = "lib/gds-checks.hcl"
  when   = local.run_gds
}
