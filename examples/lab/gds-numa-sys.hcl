# On gds02 both NICs sit on NUMA node 1, so GPU0 and GPU1 (NUMA node 0)
# reach the nearest RDMA NIC only across the inter-socket link (SYS): GDS
# loses most of its gain there. GPU2 and GPU3 stay PIX/PXB. Otherwise as
# gds-ready.hcl.
cluster {
  name        = "lab.prova"
  node_prefix = "gds"
  nodes       = 2
  servers     = 0
}

gds {
  version = "1.16" # "1.14" and "1.15" print Supported/Unsupported instead of capability lists
}

defaults {
  cpus        = 64
  numa_nodes  = 2
  iommu       = false
  nvidia_fs   = true
  filesystems = ["gpfs"]

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
    pcie_switch = "sw0" # PIX to mlx5_0
    nvlinks     = 18
  }
  gpu "GPU1" {
    numa    = 0
    nvlinks = 18
    pcie    = { mlx5_0 = "PXB" }
  }
  gpu "GPU2" {
    numa        = 1
    pcie_switch = "sw1" # PIX to mlx5_1
    nvlinks     = 18
  }
  gpu "GPU3" {
    numa    = 1
    nvlinks = 18
    pcie    = { mlx5_1 = "PXB" }
  }
}

node "gds02" {
  hca "mlx5_0" {
    numa        = 1
    pcie_switch = "sw1"
  }
  gpu "GPU1" {
    pcie = { mlx5_0 = "SYS" }
  }
}
