# Guard against Ceph over RDMA: fail every Ceph host whose ceph.conf (any
# section) sets ms_type, ms_cluster_type or ms_public_type = async+rdma, and
# fail the run before anything is written when the settings this runbook
# would roll out do. Read-only.
#
#   prova apply runbooks/ceph-rdma-guard.hcl -i inventory.hcl
#
# Why: Ceph's RDMA messenger has been experimental for years, mainstream
# deployments use TCP, documentation is thin, upgrades break it and the
# community cannot help; the gain is small because Ceph's latency sits in
# the OSD path and BlueStore, not the network stack. Want low latency?
# Change the storage (GPFS, Weka, VAST), not Ceph's network stack.
#
# An exception needs a written justification (it is kept in the run record):
#   --var waive=true --var 'justification=isolated benchmark cluster, STOR-123'

runbook {
  description = "Ceph RDMA messenger guard: async+rdma in ceph.conf or in the planned settings fails (read-only)"
  # Bounds each attempt of every step without a timeout of its own: a
  # hung command fails on its host instead of blocking the run.
  step_timeout = "2m"
}

variable "ceph_hosts" {
  type        = string
  default     = "ceph"
  description = "host pattern of the Ceph nodes (default: group ceph)"
}

variable "ceph_conf" {
  type    = string
  default = "/etc/ceph/ceph.conf"
}

variable "planned_settings" {
  type        = map(string)
  default     = {}
  description = "ceph.conf settings a later change intends to write; async+rdma there fails too"
}

variable "waive" {
  type    = bool
  default = false
}

variable "justification" {
  type        = string
  default     = ""
  description = "why async+rdma is accepted and who decided; required with waive = true"
}

step "ceph_messenger" "messenger" {
  hosts            = var.ceph_hosts
  path             = var.ceph_conf
  planned_settings = var.planned_settings
  waive            = var.waive
  justification    = var.justification != "" ? var.justification : null
  on_failure       = "continue"
}

step "assert" "no_ceph_rdma" {
  hosts    = var.ceph_hosts
  run_once = true
  check {
    name          = "no Ceph host on the RDMA messenger"
    condition     = alltrue([for h, r in per_host.messenger : !r.rdma || r.waived])
    measured      = join(", ", [for h, r in per_host.messenger : "${h}: ${coalesce(r.ms_type, "?")}/${coalesce(r.ms_cluster_type, "?")}/${coalesce(r.ms_public_type, "?")}${r.waived ? " (waived)" : ""}"])
    threshold     = "async+posix"
    error_message = "Ceph on RDMA: ${join("; ", flatten([for h, r in per_host.messenger : [for f in r.findings : "${h} ${f}"] if r.rdma && !r.waived]))}"
  }
}
