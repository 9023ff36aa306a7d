# Shared GPFS verbsRdma verification: the effective configuration, VERBS
# RDMA started, and every node's RDMA peers, with the likely cause named for
# every node that talks TCP to some peer. Needs lib/gpfs-preflight.hcl
# (ports, OFED and the gpfs_nodes local). Read-only.

variable "settle_retries" {
  type        = number
  default     = 6
  description = "how often verbs conn is read again while peers are still connecting"
}

variable "settle_delay" {
  type    = string
  default = "10s"
}

# --- in effect and in use ---

step "gpfs_config" "effective" {
  hosts = local.gpfs_nodes
  tags  = ["verify"]
}

step "assert" "in_effect" {
  hosts         = local.gpfs_nodes
  condition     = step.effective.daemon_running && length(step.effective.pending) == 0
  error_message = "${host.name}: configuration not in effect: ${step.effective.message}"
  on_failure    = "continue"
  tags          = ["verify"]
}

step "verbs_status" "verbs" {
  hosts = local.gpfs_nodes
  tags  = ["verify"]
}

# Connections come up for a while after a restart: read again until no
# peer is missing or the retries run out. What is still missing then is a
# finding for the diagnosis and the assertions below, not a failed probe.
# Output the module could not read (no outputs at all) is a failure.
step "verbs_conn" "conn" {
  hosts       = local.gpfs_nodes
  until       = length(self.missing) == 0
  retries     = var.settle_retries
  delay       = var.settle_delay
  failed_when = self.node == null
  tags        = ["verify"]
}

step "verbs_diagnose" "diag" {
  hosts         = local.gpfs_nodes
  ofed_versions = { for h, r in per_host.ofed : h => r.version }
  missing       = step.conn.missing
  tags          = ["verify"]
}

step "assert" "verbs_started" {
  hosts         = local.gpfs_nodes
  condition     = step.verbs.started
  error_message = "${host.name}: VERBS RDMA is not started (${step.verbs.status}): ${step.diag.explanation}"
  on_failure    = "continue"
  tags          = ["verify"]
}

# A node whose missing peers all have a problem of their own (cause
# peer_side) is not the culprit: it is reported as a warning, so that the
# failure names exactly the nodes where the cause lies.
step "assert" "rdma_peers" {
  hosts         = local.gpfs_nodes
  condition     = step.diag.healthy || step.diag.cause == "peer_side"
  error_message = "${step.diag.explanation} [cause ${step.diag.cause}]"
  on_failure    = "continue"
  tags          = ["verify"]
}

step "assert" "rdma_peers_complete" {
  hosts         = local.gpfs_nodes
  condition     = step.diag.healthy
  error_message = "${step.diag.explanation} [cause ${step.diag.cause}]"
  severity      = "warn"
  tags          = ["verify"]
}
