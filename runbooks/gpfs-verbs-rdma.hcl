# Enable GPFS verbsRdma on the given ports and prove, node by node, that
# every peer really talks RDMA (GPFS falls back to TCP silently).
#
#   prova apply runbooks/gpfs-verbs-rdma.hcl -i inventory.hcl \
#     --var 'verbs_ports=["mlx5_0/1","mlx5_1/1"]' --var pagepool=16G
#
# Tags: facts (read-only probes the rest uses), preflight (their asserts), configure (mmchconfig), restart
# (find pending nodes, restart them), verify (effective values, RDMA peers).
# The preflight and verify checks live in lib/ and are shared with
# gpfs-verbs-verify.hcl and rdma-acceptance.hcl.

runbook {
  description = "Enable GPFS verbsRdma on verbs_ports, restart where needed, and prove every node reaches every peer over RDMA"
  # Bounds each attempt of every step without a timeout of its own: a
  # hung command fails on its host instead of blocking the run.
  step_timeout = "10m"
}

variable "preflight_max_fail" {
  type        = number
  default     = 0
  description = "any preflight failure stops the run before anything changes"
}

variable "pagepool" {
  type        = string
  default     = "4G"
  description = "GPFS pagepool (pinned memory RDMA registers); refused when above half the admin node's memory"
  validation {
    condition     = can(regex("^[0-9]+(\\.[0-9]+)?[KMGTkmgt]?$", var.pagepool))
    error_message = "pagepool must be a size such as \"4G\", \"512M\" or a number of bytes."
  }
}

variable "restart_mode" {
  type        = string
  default     = "rolling"
  description = "rolling: in waves that never take both servers of an NSD nor quorum down; cluster: mmshutdown -a, mmstartup -a"
  validation {
    condition     = contains(["rolling", "cluster"], var.restart_mode)
    error_message = "restart_mode must be \"rolling\" or \"cluster\"."
  }
}

variable "admin_node" {
  type        = string
  default     = ""
  description = "node that runs mmchconfig and the restarts; default the first host of group gpfs (else of the inventory)"
}

variable "restart_batch" {
  type        = string
  default     = "10%"
  description = "rolling: nodes that are neither quorum, manager nor NSD server restart this many at once (a number or a share such as \"10%\")"
}

variable "restart_wait" {
  type    = string
  default = "10m"
}

variable "restart_timeout" {
  description = "Bound on the whole restart step (every node it restarts, one after another in rolling mode); each node's wait is restart_wait"
  type        = string
  default     = "12h"
}

variable "restart_poll" {
  type    = string
  default = "5s"
}

locals {
  admin       = var.admin_node != "" ? var.admin_node : try(group.gpfs[0], inventory.hosts[0])
  verbs_ports = join(" ", var.verbs_ports)
}

# --- recover: nodes an interrupted run took down (named in gpfs_restart's
# marker on the admin node) are started before anything else, so that a
# run killed mid-restart never leaves a node down; nothing to do otherwise ---

step "gpfs_restart" "recover" {
  hosts               = local.admin
  run_once            = true
  nodes               = []
  timeout             = var.restart_timeout
  max_wait            = var.restart_wait
  interval            = var.restart_poll
  max_fail_percentage = 0
  tags                = ["restart"]
}

include "preflight" {
  source = "lib/gpfs-preflight.hcl"
}

# --- configure: one mmchconfig on the admin node; pagepool is checked
# against its memory before anything changes ---

step "mmchconfig" "configure" {
  hosts    = local.admin
  run_once = true
  attributes = {
    verbsRdma  = "enable"
    verbsPorts = local.verbs_ports
    pagepool   = var.pagepool
  }
  max_fail_percentage = 0
  tags                = ["configure"]
}

# --- restart: nodes whose configured values differ from the running
# daemon's (also catches a run that died before restarting) ---

step "gpfs_config" "config" {
  hosts = local.gpfs_nodes
  tags  = ["restart"]
}

step "gpfs_restart" "restart" {
  hosts               = local.admin
  run_once            = true
  mode                = var.restart_mode
  nodes               = [for h, r in per_host.config : h if r.restart_pending]
  batch               = var.restart_batch
  max_wait            = var.restart_wait
  interval            = var.restart_poll
  timeout             = var.restart_timeout
  max_fail_percentage = 0
  tags                = ["restart"]
}

include "verify" {
  source = "lib/gpfs-verify.hcl"
}
