# Shared GPFS verbsRdma preflight: RDMA ports present and Active/LinkUp on
# every node, OFED installed and the same everywhere. Included by
# gpfs-verbs-rdma.hcl, gpfs-verbs-verify.hcl and rdma-acceptance.hcl.

variable "verbs_ports" {
  type        = list(string)
  description = "verbsPorts entries, device/port (mlx5_0/1)"
  validation {
    condition     = length(var.verbs_ports) > 0 && alltrue([for p in var.verbs_ports : can(regex("^[A-Za-z0-9_.-]+(/[0-9]+){0,2}$", p))])
    error_message = "verbs_ports must list device/port entries such as \"mlx5_0/1\"."
  }
}

variable "preflight_max_fail" {
  type        = number
  default     = 100
  description = "share of nodes (percent) a preflight check may fail on before the run stops; 0 stops at the first failure"
}

locals {
  gpfs_nodes = try(length(group.gpfs) > 0, false) ? "gpfs" : "all"
}

# --- preflight: read-only; every node is checked. With preflight_max_fail
# = 0 (gpfs-verbs-rdma.hcl) any failure stops the run before a change,
# and so does a node that cannot be reached: the facts steps count an
# unreachable host as a failed one. ---

step "rdma_ports" "ports" {
  hosts               = local.gpfs_nodes
  require             = var.verbs_ports
  max_fail_percentage = var.preflight_max_fail
  tags                = ["facts"]
}

step "assert" "ports_active" {
  hosts               = local.gpfs_nodes
  condition           = step.ports.has_hca && length(step.ports.missing_ports) == 0
  error_message       = "${host.name}: verbsPorts ${join(", ", step.ports.missing_ports)} missing or not Active/LinkUp: ${step.ports.message}"
  on_failure          = "continue"
  max_fail_percentage = var.preflight_max_fail
  tags                = ["preflight"]
}

step "ofed" "ofed" {
  hosts               = local.gpfs_nodes
  max_fail_percentage = var.preflight_max_fail
  tags                = ["facts"]
}

step "assert" "ofed_installed" {
  hosts               = local.gpfs_nodes
  condition           = step.ofed.installed
  error_message       = "${host.name}: MLNX_OFED is not installed (${step.ofed.message})"
  on_failure          = "continue"
  max_fail_percentage = var.preflight_max_fail
  tags                = ["preflight"]
}

step "assert" "ofed_same" {
  hosts               = local.gpfs_nodes
  run_once            = true
  condition           = length(distinct([for h, r in per_host.ofed : r.version])) == 1
  error_message       = "OFED differs between nodes: ${join(", ", [for h, r in per_host.ofed : "${h} (${r.installed ? r.version : "none"})"])}"
  on_failure          = "continue"
  max_fail_percentage = var.preflight_max_fail
  tags                = ["preflight"]
}

# --- cluster health: every quorum node and NSD server (inventory groups
# quorum and nsd_servers, when the inventory has them) runs its daemon;
# otherwise nothing is changed or restarted. gpfs_restart checks the same
# with mmgetstate before it restarts anything, whatever the groups. ---

step "gpfs_config" "state" {
  hosts               = local.gpfs_nodes
  max_fail_percentage = var.preflight_max_fail
  tags                = ["facts"]
}

step "assert" "cluster_healthy" {
  hosts               = local.gpfs_nodes
  run_once            = true
  condition           = alltrue([for h in local.core_nodes : try(per_host.state[h].daemon_running, false)])
  error_message       = "quorum nodes and NSD servers must be reachable and running first; not running: ${join(", ", [for h in local.core_nodes : h if !try(per_host.state[h].daemon_running, false)])}"
  on_failure          = "continue"
  max_fail_percentage = var.preflight_max_fail
  tags                = ["preflight"]
}

locals {
  core_nodes = distinct(concat(try(group.quorum, []), try(group.nsd_servers, [])))
}
