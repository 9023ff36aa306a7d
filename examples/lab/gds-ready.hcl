# GPUDirect Storage clients, every node ready: GDS 1.16 with nvidia_fs
# loaded, IOMMU off, GPFS mounted, and each GPU under the same PCIe switch as
# an RDMA NIC (PIX or PXB). The gds-*.hcl fault scenarios start from this
# node and break one thing on gds02.
cluster {
  name        = "lab.prova"
  node_prefix = "gds"
  nodes       = 2
  servers     = 0
}

gds {
  version  = "1.16" # "1.14" and "1.15" print Supported/Unsupported instead of capability lists
  io_stats = true   # nvidia-fs rw_stats_enabled=1: /proc/driver/nvidia-fs/stats counts reads
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

# IBM Storage Scale's GDS settings (IBM Storage Scale 5.2, "Configuring
# GPUDirect Storage for IBM Storage Scale"), as if set with mmchconfig
# before the daemons started. verbsPorts names both ports: cufile.json
# lists the addresses of both (ib0 10.10.0.N, ib1 10.11.0.N).
gpfs {
  config = {
    verbsRdma             = "enable"
    verbsRdmaSend         = "yes"
    verbsGPUDirectStorage = "yes"
    verbsPorts            = "mlx5_0/1 mlx5_1/1"
  }
}
