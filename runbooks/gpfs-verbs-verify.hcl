# Prove, without changing anything, that GPFS verbsRdma is in effect and
# that every node reaches every peer over RDMA: run it after any change or
# cluster expansion.
#
#   prova apply runbooks/gpfs-verbs-verify.hcl -i inventory.hcl \
#     --var 'verbs_ports=["mlx5_0/1","mlx5_1/1"]'
#
# The checks are the same as the verify part of gpfs-verbs-rdma.hcl; keep the
# two in step until the language has an include.

runbook {
  description = "Verify GPFS verbsRdma: ports, OFED, effective configuration, and RDMA to every peer (read-only)"
}

variable "verbs_ports" {
  type        = list(string)
  description = "verbsPorts entries, device/port (mlx5_0/1)"
  validation {
    condition     = length(var.verbs_ports) > 0 && alltrue([for p in var.verbs_ports : can(regex("^[A-Za-z0-9_.-]+(/[0-9]+){0,2}$", p))])
    error_message = "verbs_ports must list device/port entries such as \"mlx5_0/1\"."
  }
}

variable "settle_retries" {
  type        = number
  default     = 6
  description = "how often verbs conn is read again while peers are still connecting"
}

variable "settle_delay" {
  type    = string
  default = "10s"
}

locals {
  nodes = try(length(group.gpfs) > 0, false) ? "gpfs" : "all"
}

# --- preflight: read-only; every node is checked ---

step "rdma_ports" "ports" {
  hosts   = local.nodes
  require = var.verbs_ports
  tags    = ["facts"]
}

step "assert" "ports_active" {
  hosts         = local.nodes
  condition     = step.ports.has_hca && length(step.ports.missing_ports) == 0
  error_message = "${host.name}: verbsPorts ${join(", ", step.ports.missing_ports)} missing or not Active/LinkUp: ${step.ports.message}"
  on_failure    = "continue"
  tags          = ["preflight"]
}

step "ofed" "ofed" {
  hosts = local.nodes
  tags  = ["facts"]
}

step "assert" "ofed_installed" {
  hosts         = local.nodes
  condition     = step.ofed.installed
  error_message = "${host.name}: MLNX_OFED is not installed (${step.ofed.message})"
  on_failure    = "continue"
  tags          = ["preflight"]
}

step "assert" "ofed_same" {
  hosts         = local.nodes
  run_once      = true
  condition     = length(distinct([for h, r in per_host.ofed : r.version])) == 1
  error_message = "OFED differs between nodes: ${join(", ", [for h, r in per_host.ofed : "${h} (${r.installed ? r.version : "none"})"])}"
  on_failure    = "continue"
  tags          = ["preflight"]
}

# --- in effect and in use ---

step "gpfs_config" "effective" {
  hosts = local.nodes
  tags  = ["verify"]
}

step "assert" "in_effect" {
  hosts         = local.nodes
  condition     = step.effective.daemon_running && length(step.effective.pending) == 0
  error_message = "${host.name}: configuration not in effect: ${step.effective.message}"
  on_failure    = "continue"
  tags          = ["verify"]
}

step "verbs_status" "verbs" {
  hosts = local.nodes
  tags  = ["verify"]
}

step "verbs_conn" "conn" {
  hosts      = local.nodes
  until      = length(self.missing) == 0
  retries    = var.settle_retries
  delay      = var.settle_delay
  on_failure = "continue"
  tags       = ["verify"]
}

step "verbs_diagnose" "diag" {
  hosts         = local.nodes
  ofed_versions = { for h, r in per_host.ofed : h => r.version }
  missing       = step.conn.missing
  tags          = ["verify"]
}

step "assert" "verbs_started" {
  hosts         = local.nodes
  condition     = step.verbs.started
  error_message = "${host.name}: VERBS RDMA is not started (${step.verbs.status}): ${step.diag.explanation}"
  on_failure    = "continue"
  tags          = ["verify"]
}

step "assert" "rdma_peers" {
  hosts         = local.nodes
  condition     = step.diag.healthy
  error_message = "${step.diag.explanation} [cause ${step.diag.cause}]"
  tags          = ["verify"]
}
