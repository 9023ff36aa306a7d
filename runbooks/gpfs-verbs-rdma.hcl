# Enable GPFS verbsRdma on the given ports and prove, node by node, that
# every peer really talks RDMA (GPFS falls back to TCP silently).
#
#   prova apply runbooks/gpfs-verbs-rdma.hcl -i inventory.hcl \
#     --var 'verbs_ports=["mlx5_0/1","mlx5_1/1"]' --var pagepool=16G
#
# Tags: facts (read-only probes the rest uses), preflight (their asserts), configure (mmchconfig), restart
# (find pending nodes, restart them), verify (effective values, RDMA peers).
# The checks after "verify" are the same as runbooks/gpfs-verbs-verify.hcl;
# keep the two in step until the language has an include.

runbook {
  description = "Enable GPFS verbsRdma on verbs_ports, restart where needed, and prove every node reaches every peer over RDMA"
}

variable "verbs_ports" {
  type        = list(string)
  description = "verbsPorts entries, device/port (mlx5_0/1)"
  validation {
    condition     = length(var.verbs_ports) > 0 && alltrue([for p in var.verbs_ports : can(regex("^[A-Za-z0-9_.-]+(/[0-9]+){0,2}$", p))])
    error_message = "verbs_ports must list device/port entries such as \"mlx5_0/1\"."
  }
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
  description = "rolling: one node at a time, never more than one quorum node down; cluster: mmshutdown -a, mmstartup -a"
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

variable "restart_wait" {
  type    = string
  default = "10m"
}

variable "restart_poll" {
  type    = string
  default = "5s"
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
  nodes       = try(length(group.gpfs) > 0, false) ? "gpfs" : "all"
  admin       = var.admin_node != "" ? var.admin_node : try(group.gpfs[0], inventory.hosts[0])
  verbs_ports = join(" ", var.verbs_ports)
}

# --- preflight: read-only; any failure stops the run before a change ---

step "rdma_ports" "ports" {
  hosts   = local.nodes
  require = var.verbs_ports
  tags    = ["facts"]
}

step "assert" "ports_active" {
  hosts               = local.nodes
  condition           = step.ports.has_hca && length(step.ports.missing_ports) == 0
  error_message       = "${host.name}: verbsPorts ${join(", ", step.ports.missing_ports)} missing or not Active/LinkUp: ${step.ports.message}"
  max_fail_percentage = 0
  tags                = ["preflight"]
}

step "ofed" "ofed" {
  hosts = local.nodes
  tags  = ["facts"]
}

step "assert" "ofed_installed" {
  hosts               = local.nodes
  condition           = step.ofed.installed
  error_message       = "${host.name}: MLNX_OFED is not installed (${step.ofed.message})"
  max_fail_percentage = 0
  tags                = ["preflight"]
}

step "assert" "ofed_same" {
  hosts               = local.nodes
  run_once            = true
  condition           = length(distinct([for h, r in per_host.ofed : r.version])) == 1
  error_message       = "OFED differs from ${local.admin}'s ${per_host.ofed[local.admin].version} on: ${join(", ", [for h, r in per_host.ofed : "${h} (${r.installed ? r.version : "none"})" if r.version != per_host.ofed[local.admin].version])}"
  max_fail_percentage = 0
  tags                = ["preflight"]
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
  hosts = local.nodes
  tags  = ["restart"]
}

step "gpfs_restart" "restart" {
  hosts               = local.admin
  run_once            = true
  mode                = var.restart_mode
  nodes               = [for h, r in per_host.config : h if r.restart_pending]
  max_wait            = var.restart_wait
  interval            = var.restart_poll
  max_fail_percentage = 0
  tags                = ["restart"]
}

# --- verify (same as gpfs-verbs-verify.hcl) ---

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
