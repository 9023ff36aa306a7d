# GPUDirect Storage clients: 4 GPUs with NVLink and two NICs. gpfs02 has
# its NIC on the other NUMA node (SYS to every GPU), IOMMU on and no
# nvidia_fs module: the three classic GDS blockers.
cluster {
  name    = "lab.prova"
  nodes   = 2
  servers = 0
}

defaults {
  cpus        = 64
  numa_nodes  = 2
  nvidia_fs   = true
  nvme_drives = 2

  hca "mlx5_0" {
    numa        = 0
    pcie_switch = "sw0"
    port "1" {
      rate   = 400
      netdev = "ib0"
    }
  }
  hca "mlx5_1" {
    numa        = 1
    pcie_switch = "sw1"
    port "1" {
      rate   = 400
      netdev = "ib1"
    }
  }

  gpu "GPU0" {
    model       = "NVIDIA H100 80GB HBM3"
    numa        = 0
    pcie_switch = "sw0"
    nvlinks     = 18
  }
  gpu "GPU1" {
    numa    = 0
    nvlinks = 18
    pcie    = { mlx5_0 = "PXB" }
  }
  gpu "GPU2" {
    numa        = 1
    pcie_switch = "sw1"
    nvlinks     = 18
  }
  gpu "GPU3" {
    numa    = 1
    nvlinks = 18
    pcie    = { mlx5_1 = "PXB" }
  }
}

node "gpfs02" {
  iommu     = true
  nvidia_fs = false
  hca "mlx5_0" {
    numa        = 1
    pcie_switch = ""
  }
  hca "mlx5_1" {
    absent = true
  }
}
