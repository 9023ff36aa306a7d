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

variable "platform" {
  type        = string
  default     = "x86"
  description = "what the IOMMU rule is judged by: x86 (bare metal: IOMMU disabled or iommu=pt), grace_hopper (IOMMU enabled, not passthrough), vm (IOMMU on, ATS on the NIC; ATS and ACS are not checked)"
  validation {
    condition     = contains(["x86", "grace_hopper", "vm"], var.platform)
    error_message = "platform must be x86, grace_hopper or vm."
  }
}

variable "gds_test_file" {
  type        = string
  default     = ""
  description = "a file on the GDS mount (at least 64 MiB) that gds_read reads into GPU 0 with gdsio, comparing nvidia-fs's counters before and after: the evidence that bytes go GPU-direct on that mount; empty = no read"
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

# GPU proximity is judged against the NICs GDS traffic will use: the
# storage ports named in rdma_ports, else the RDMA ports that hold cuFile's
# rdma_dev_addr_list (gdscheck maps them), else every NIC in the matrix.
step "gpu_topology" "topo" {
  hosts = local.gds_hosts
  nics  = length(var.rdma_ports) > 0 ? var.rdma_ports : (length(step.gds.rdma_devices) > 0 ? step.gds.rdma_devices : null)
  acs   = true
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
    error_message = "${host.name}: ${join(", ", concat(step.topo.far, step.topo.no_nic))} reach no RDMA NIC under their PCIe switch (${join(", ", [for n in step.topo.nearest : "${n.gpu}-${n.nic} ${n.relation}"])}; judged against ${length(var.rdma_ports) > 0 ? "rdma_ports" : (length(step.gds.rdma_devices) > 0 ? "the NICs of cuFile's rdma_dev_addr_list" : "every NIC")}): GDS traffic crosses the host bridges or NUMA nodes and loses most of its gain"
  }
}

# ACS on a PCIe switch port between a GPU and its NIC sends their
# peer-to-peer traffic up through the root complex: PIX in the matrix, not
# in practice. That fails the node (lspci -vvv -D needs root; when ACS
# cannot be read the check says so and fails: not proven is not passed).
step "assert" "gpu_nic_acs" {
  hosts = local.gds_hosts
  # In a VM, ACS is set on purpose so that ATS works (NVIDIA AI Enterprise,
  # "ATS and ACS configuration"): not judged there.
  when       = step.topo.has_gpu && var.platform != "vm"
  on_failure = "continue"
  check {
    name          = "no ACS redirect between a GPU and its NIC"
    condition     = step.topo.acs_checked && length(step.topo.acs_blocked) == 0
    measured      = step.topo.acs_checked ? (length(step.topo.acs_blocked) == 0 ? "no redirect on the GPU-NIC paths" : join("; ", step.topo.acs_blocked)) : "unknown: ${step.topo.acs_unknown}"
    threshold     = "ACSCtl ReqRedir- CmpltRedir- on the switch ports between GPU and NIC"
    error_message = step.topo.acs_checked ? "${host.name}: ${join("; ", step.topo.acs_blocked)}: GDS traffic goes through the root complex (disable ACS on the switch, e.g. in the BIOS or with setpci)" : "${host.name}: ACS not checked: ${step.topo.acs_unknown}"
  }
}

# The evidence an operator hands over: one check per precondition, with its
# measured value, in the run record next to gdscheck's raw output. The last
# two are the consequence: the data path cuFile will give the file system
# (compatibility mode fails "GDS ready" unless waived) and each GPU's GDS
# support (docs/gds.md).
step "assert" "gds_ready" {
  hosts = local.gds_hosts
  # A node that fails here still gets the GPFS and per-mount checks: the
  # run record then holds every reason at once.
  on_failure = "continue"
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
    condition     = step.gds.nvidia_fs_loaded || step.gds.data_path == "p2pdma"
    measured      = step.gds.nvidia_fs_loaded ? step.gds.nvidia_fs_version : (step.gds.data_path == "p2pdma" ? "not loaded (P2PDMA serves local NVMe)" : "not loaded")
    threshold     = "loaded (not needed for local NVMe over P2PDMA)"
    error_message = "${host.name}: the nvidia_fs kernel module is not loaded: cuFile falls back to POSIX I/O through host memory"
  }
  check {
    name          = "IOMMU by platform"
    condition     = var.platform == "x86" ? contains(["disabled", "passthrough"], step.gds.iommu) : (var.platform == "grace_hopper" ? step.gds.iommu == "enabled" : contains(["enabled", "passthrough"], step.gds.iommu))
    measured      = step.gds.installed ? step.gds.iommu : "unknown (no gdscheck)"
    threshold     = var.platform == "x86" ? "disabled or passthrough (iommu=pt)" : (var.platform == "grace_hopper" ? "enabled, passthrough off" : "enabled (with ATS on the NIC)")
    error_message = step.gds.iommu == "unknown" ? "${host.name}: IOMMU state unknown: gdscheck printed no IOMMU line (not taken as disabled)" : (var.platform == "x86" ? "${host.name}: IOMMU is enabled and translating: PCIe peer-to-peer traffic goes through the root complex (boot with intel_iommu=off / amd_iommu=off, or iommu=pt)" : "${host.name}: IOMMU is ${step.gds.iommu}; on ${var.platform} GDS wants it ${var.platform == "grace_hopper" ? "enabled with passthrough off" : "enabled"}")
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
  check {
    name          = "GDS data path (not compatibility mode)"
    condition     = contains(["native", "p2pdma", "rdma"], step.gds.data_path)
    measured      = "${step.gds.data_path}: ${join("; ", step.gds.data_path_reasons)}"
    threshold     = "native, p2pdma or rdma"
    error_message = "${host.name}: cuFile will serve ${var.filesystem} in ${step.gds.data_path} mode: ${join("; ", step.gds.data_path_reasons)}"
  }
  check {
    name          = "every GPU supports GDS"
    condition     = step.gds.has_gpu && length(step.gds.gpus_without_gds) == 0
    measured      = length(step.gds.gpus_without_gds) == 0 ? "all ${length(step.gds.gpus)}" : "not: GPU ${join(", ", [for g in step.gds.gpus_without_gds : tostring(g)])}"
    threshold     = "supports GDS (BAR1)"
    error_message = "${host.name}: GPU ${join(", ", [for g in step.gds.gpus_without_gds : tostring(g)])} not reported as supporting GDS: I/O to them uses compatibility mode"
  }
}

# IBM Storage Scale's own GDS settings on GPFS clients (IBM Storage Scale
# 5.2 "Configuring GPUDirect Storage for IBM Storage Scale"): read from the
# running daemon, with verbsPorts checked against the NICs cuFile uses.
step "gds_gpfs" "gds_gpfs" {
  hosts        = local.gds_hosts
  when         = var.filesystem == "gpfs" && step.gds.installed
  rdma_devices = step.gds.rdma_devices
}

step "assert" "gpfs_gds_settings" {
  hosts      = local.gds_hosts
  on_failure = "continue"
  when       = var.filesystem == "gpfs" && step.gds.installed
  check {
    name          = "GPFS verbsGPUDirectStorage"
    condition     = step.gds_gpfs.gds_enabled
    measured      = step.gds_gpfs.daemon_running ? step.gds_gpfs.settings["verbsGPUDirectStorage"] : "daemon not running"
    threshold     = "yes (in the running daemon)"
    error_message = "${host.name}: GPFS verbsGPUDirectStorage is ${lookup(step.gds_gpfs.settings, "verbsGPUDirectStorage", "not in effect (daemon not running)")}: GPFS serves no GDS read over RDMA into GPU memory (mmchconfig verbsGPUDirectStorage=yes, with GPFS stopped on all nodes)"
  }
  check {
    name          = "GPFS verbsRdma"
    condition     = step.gds_gpfs.verbs_rdma
    measured      = lookup(step.gds_gpfs.settings, "verbsRdma", "daemon not running")
    threshold     = "enable"
    error_message = "${host.name}: GPFS verbsRdma is ${lookup(step.gds_gpfs.settings, "verbsRdma", "not in effect")}: GDS on Storage Scale needs RDMA"
  }
  check {
    name          = "GPFS verbsRdmaSend"
    condition     = step.gds_gpfs.verbs_rdma_send
    measured      = lookup(step.gds_gpfs.settings, "verbsRdmaSend", "daemon not running")
    threshold     = "yes"
    error_message = "${host.name}: GPFS verbsRdmaSend is ${lookup(step.gds_gpfs.settings, "verbsRdmaSend", "not in effect")}: IBM requires verbsRdmaSend=yes for GDS"
  }
  check {
    name          = "GPFS minReleaseLevel"
    condition     = step.gds_gpfs.min_release_ok
    measured      = lookup(step.gds_gpfs.settings, "minReleaseLevel", "not set")
    threshold     = ">= 5.1.2"
    error_message = "${host.name}: GPFS minReleaseLevel ${lookup(step.gds_gpfs.settings, "minReleaseLevel", "not set")} is older than 5.1.2, the first with GDS"
  }
  check {
    name          = "verbsPorts holds cuFile's RDMA NICs"
    condition     = step.gds_gpfs.ports_match
    measured      = "verbsPorts ${join(" ", step.gds_gpfs.verbs_ports)}; cuFile ${length(step.gds.rdma_devices) > 0 ? join(" ", step.gds.rdma_devices) : "none mapped"}${length(step.gds.rdma_addr_unmapped) > 0 ? " (unmapped: ${join("; ", step.gds.rdma_addr_unmapped)})" : ""}"
    threshold     = "every device of rdma_dev_addr_list in verbsPorts"
    error_message = length(step.gds.rdma_devices) == 0 ? "${host.name}: no RDMA device holds an address of cuFile's rdma_dev_addr_list (${length(step.gds.rdma_dev_addr_list) > 0 ? join("; ", step.gds.rdma_addr_unmapped) : "the list is empty"}): verbsPorts cannot match it" : "${host.name}: verbsPorts (${join(" ", step.gds_gpfs.verbs_ports)}) does not list ${join(", ", step.gds_gpfs.ports_missing)}, which cuFile uses for rdma_dev_addr_list: GDS I/O through it fails with an I/O error in mmfs.log"
  }
}

# Per mount: one short gdsio read of var.gds_test_file into GPU 0, with
# nvidia-fs's counters before and after as the evidence that the bytes
# went GPU-direct (gdsio itself reports only the transfer type it asked
# for). Compatibility mode or a failed read fails the node; counters that
# cannot tell (nvidia-fs IO stats off) only warn.
step "gds_read" "gds_read" {
  hosts = local.gds_hosts
  when  = var.gds_test_file != "" && step.gds.installed && step.gds.has_gpu
  file  = var.gds_test_file
}

step "assert" "gds_mount_read" {
  hosts = local.gds_hosts
  when  = var.gds_test_file != "" && step.gds.installed && step.gds.has_gpu
  check {
    name          = "read of the test file went GPU-direct"
    condition     = !contains(["compat", "failed"], step.gds_read.mode)
    measured      = "${step.gds_read.mode}: ${join("; ", step.gds_read.reasons)}"
    threshold     = "nvidia-fs counts >= 90% of the bytes gdsio read"
    error_message = "${host.name}: gdsio read of ${var.gds_test_file} ${step.gds_read.mode == "failed" ? "failed" : "did not go GPU-direct"}: ${join("; ", step.gds_read.reasons)}"
  }
}

step "assert" "gds_mount_read_proven" {
  hosts    = local.gds_hosts
  severity = "warn"
  when     = var.gds_test_file != "" && step.gds.installed && step.gds.has_gpu
  check {
    name          = "nvidia-fs counters can prove the read"
    condition     = step.gds_read.mode != "unknown"
    measured      = "${step.gds_read.mode}: ${join("; ", step.gds_read.reasons)}"
    threshold     = "nvidia-fs loaded with IO stats on"
    error_message = "${host.name}: no evidence the read of ${var.gds_test_file} went GPU-direct: ${join("; ", step.gds_read.reasons)}"
  }
}
