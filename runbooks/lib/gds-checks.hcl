# Shared GPUDirect Storage readiness checks: variables and steps, included
# by gds-readiness.hcl and rdma-acceptance.hcl (see docs/gds.md).

variable "filesystem" {
  type        = string
  default     = "gpfs"
  description = "the site's file system as gdscheck -filesystem names it: gpfs, weka, vast, lustre, beegfs or a DRIVER CONFIGURATION name"
}

variable "gdscheck_path" {
  type    = string
  default = "/usr/local/cuda/gds/tools/gdscheck"
}

variable "rdma_ports" {
  type        = list(string)
  default     = []
  description = "RDMA ports the storage traffic uses (device/port, mlx5_0/1): they must be Active/LinkUp, and GPU proximity is judged against them; empty = any NIC"
}

variable "gpu_hosts" {
  type        = string
  default     = ""
  description = "host pattern of the GPU nodes; empty = group gpu if the inventory has it, else all"
}

locals {
  gds_hosts = var.gpu_hosts != "" ? var.gpu_hosts : (try(length(group.gpu) > 0, false) ? "gpu" : "all")
}

step "gdscheck" "gds" {
  hosts      = local.gds_hosts
  path       = var.gdscheck_path
  filesystem = var.filesystem
}

step "gpu_topology" "topo" {
  hosts = local.gds_hosts
  nics  = length(var.rdma_ports) > 0 ? var.rdma_ports : null
}

step "rdma_ports" "gds_ports" {
  hosts   = local.gds_hosts
  require = var.rdma_ports
}

# NODE/SYS between a GPU and its nearest RDMA NIC: a warning, see above.
step "assert" "gpu_near_nic" {
  hosts    = local.gds_hosts
  severity = "warn"
  when     = step.topo.has_gpu
  check {
    name          = "every GPU under the same PCIe switch as an RDMA NIC"
    condition     = step.topo.all_near
    measured      = join(", ", concat([for n in step.topo.nearest : "${n.gpu}-${n.nic} ${n.relation}"], [for g in step.topo.no_nic : "${g}-none"]))
    threshold     = "PIX or PXB"
    error_message = "${host.name}: ${join(", ", concat(step.topo.far, step.topo.no_nic))} reach no RDMA NIC under their PCIe switch (${join(", ", [for n in step.topo.nearest : "${n.gpu}-${n.nic} ${n.relation}"])}): GDS traffic crosses the host bridges or NUMA nodes and loses most of its gain"
  }
}

# The evidence an operator hands over: one check per precondition, with its
# measured value, in the run record next to gdscheck's raw output.
step "assert" "gds_ready" {
  hosts = local.gds_hosts
  check {
    name          = "GDS installed"
    condition     = step.gds.installed
    measured      = coalesce(step.gds.gds_version, "not installed")
    threshold     = "gdscheck at ${var.gdscheck_path}"
    error_message = "${host.name}: ${step.gds.message}"
  }
  check {
    name          = "GPU present"
    condition     = step.gds.has_gpu
    measured      = "${length(step.gds.gpus)} GPU(s)"
    threshold     = ">= 1"
    error_message = "${host.name}: gdscheck reports no GPU"
  }
  check {
    name          = "nvidia_fs loaded"
    condition     = step.gds.nvidia_fs_loaded
    measured      = coalesce(step.gds.nvidia_fs_version, "not loaded")
    threshold     = "loaded"
    error_message = "${host.name}: the nvidia_fs kernel module is not loaded: cuFile falls back to POSIX I/O through host memory"
  }
  check {
    name          = "IOMMU disabled"
    condition     = step.gds.installed && !step.gds.iommu_enabled
    measured      = step.gds.installed ? (step.gds.iommu_enabled ? "enabled" : "disabled") : "unknown (no gdscheck)"
    threshold     = "disabled"
    error_message = "${host.name}: IOMMU is enabled: PCIe peer-to-peer traffic goes through the root complex (boot with intel_iommu=off or amd_iommu=off)"
  }
  check {
    name          = "file system supported by GDS"
    condition     = coalesce(step.gds.fs_supported, false)
    measured      = "${var.filesystem} ${coalesce(step.gds.fs_supported, false) ? "supported" : "not supported"}"
    threshold     = "supported (Supported, nvfs or dmabuf)"
    error_message = "${host.name}: gdscheck does not report ${var.filesystem} as supported by GPUDirect Storage"
  }
  check {
    name          = "platform verification"
    condition     = step.gds.platform_verified
    measured      = step.gds.platform_verified ? "succeeded" : "not succeeded"
    threshold     = "succeeded"
    error_message = "${host.name}: gdscheck platform verification did not succeed"
  }
  check {
    name          = "RDMA ports Active"
    condition     = step.gds_ports.has_hca && length(step.gds_ports.missing_ports) == 0 && length(step.gds_ports.active_ports) > 0
    measured      = length(step.gds_ports.active_ports) > 0 ? join(", ", step.gds_ports.active_ports) : "none"
    threshold     = length(var.rdma_ports) > 0 ? join(", ", var.rdma_ports) : "at least one"
    error_message = "${host.name}: RDMA path not healthy: missing or inactive ${join(", ", step.gds_ports.missing_ports)} (active: ${join(", ", step.gds_ports.active_ports)})"
  }
}
