# Shared NVMe-oF RDMA-vs-TCP comparison: variables and steps, included by
# nvmeof-rdma-vs-tcp.hcl and rdma-acceptance.hcl (see that runbook and
# docs/nvmeof.md).

variable "target_address" {
  type        = string
  description = "NVMe-oF target address (traddr)"
}

variable "target_port" {
  type    = number
  default = 4420
}

variable "nqn" {
  type        = string
  description = "subsystem NQN to benchmark"
}

variable "initiator" {
  type        = string
  default     = null
  description = "host (or host pattern) that connects and benchmarks; default the first host of the inventory"
}

variable "tool" {
  type    = string
  default = "elbencho"
  validation {
    condition     = contains(["elbencho", "fio"], var.tool)
    error_message = "tool must be elbencho or fio."
  }
}

variable "block_size" {
  type    = string
  default = "4K"
}

variable "threads" {
  type    = number
  default = 16
}

variable "iodepth" {
  type    = number
  default = 32
}

variable "runtime" {
  type    = string
  default = "30s"
}

variable "bench_timeout" {
  description = "Bound on one benchmark run (its runtime plus setup); raise it with runtime"
  type        = string
  default     = "15m"
}

variable "repeat" {
  type        = number
  default     = 3
  description = "runs of each benchmark per pass (two passes per transport, TCP RDMA RDMA TCP); the comparison uses the medians and warns when they spread"
}

variable "nr_io_queues" {
  type        = number
  default     = 8
  description = "I/O queues for both transports (nvme connect -i), so that neither gets more"
}

variable "numa_node" {
  type        = number
  default     = null
  description = "pin every benchmark to this NUMA node (numactl), e.g. the data NIC's; default not pinned"
}

variable "seq_block_size" {
  type    = string
  default = "1M"
}

variable "line_rate_gbps" {
  type        = number
  default     = null
  description = "nominal line rate in Gb/s for the bandwidth line; default the fastest port rdma_ports finds on the initiator"
}

variable "profile" {
  type        = string
  default     = ""
  description = "threshold profile (docs/thresholds.md); empty = prova-ipoib/1 when the initiator's active data port is InfiniBand (the TCP run is then TCP over IPoIB), else prova-default/2"
}

variable "max_latency_ratio" {
  type    = number
  default = null
}

variable "min_soft_drop_pct" {
  type    = number
  default = null
}

variable "min_bandwidth_share" {
  type    = number
  default = null
}

locals {
  nvme_initiator = var.initiator != null ? var.initiator : group.all[0]
}

# --- facts (read-only) ---

step "rdma_ports" "nvme_ports" {
  hosts      = local.nvme_initiator
  on_failure = "continue"
  tags       = ["facts"]
}

# Start clean: a path left over TCP would make the RDMA run mixed.
step "nvme_disconnect" "clean_start" {
  hosts      = local.nvme_initiator
  nqn        = var.nqn
  on_failure = "continue"
}

# --- each transport in turn: connect, check the path, benchmark, disconnect ---

# Two passes per transport in the order TCP, RDMA, RDMA, TCP: neither
# transport always runs first (warming the target's cache for the other),
# and a drift over the run cancels out of the medians.
include "transport" {
  source   = "nvmeof-transport.hcl"
  for_each = { tcp = "tcp", rdma = "rdma", rdma_2 = "rdma", tcp_2 = "tcp" }
}

# --- the three lines side by side ---

step "compare" "rdma_vs_tcp" {
  hosts               = local.nvme_initiator
  lat_rdma            = [step.lat_rdma, step.lat_rdma_2]
  lat_tcp             = [step.lat_tcp, step.lat_tcp_2]
  rdma                = [step.iops_rdma, step.iops_rdma_2]
  tcp                 = [step.iops_tcp, step.iops_tcp_2]
  seq_rdma            = [step.seq_rdma, step.seq_rdma_2]
  seq_tcp             = [step.seq_tcp, step.seq_tcp_2]
  line_rate_gbps      = var.line_rate_gbps != null ? var.line_rate_gbps : try(max(flatten([for d in step.nvme_ports.devices : [for p in d.ports : p.rate_gbps]])...), null)
  link_layer          = try(flatten([for d in step.nvme_ports.devices : [for p in d.ports : p.link_layer if p.state == "Active"]])[0], null)
  profile             = var.profile != "" ? var.profile : (try(flatten([for d in step.nvme_ports.devices : [for p in d.ports : p.link_layer if p.state == "Active"]])[0], "") == "InfiniBand" ? "prova-ipoib/1" : "prova-default/2")
  max_latency_ratio   = var.max_latency_ratio
  min_soft_drop_pct   = var.min_soft_drop_pct
  min_bandwidth_share = var.min_bandwidth_share
  on_failure          = "continue"
}

# --- always: leave nothing connected ---

step "nvme_disconnect" "cleanup" {
  hosts = local.nvme_initiator
  nqn   = var.nqn
}
