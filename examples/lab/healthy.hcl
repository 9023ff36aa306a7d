# Every node healthy: two HDR InfiniBand ports (mlx5_0/1, mlx5_1/1), OFED
# 23.10 everywhere, GPFS file system. Written out in full as a template.
cluster {
  name        = "lab.prova"
  node_prefix = "gpfs"
  servers     = 2       # gpfs01, gpfs02: nsd_servers + quorum; the rest: clients
  nodes       = 4
  network     = "10.10.0.0/16"
}

defaults {
  memory_gib  = 256
  cpus        = 32
  numa_nodes  = 2
  kernel      = "5.14.0-362.24.1.el9_3.x86_64"
  ofed        = "MLNX_OFED_LINUX-23.10-1.1.9.0"
  iommu       = false
  filesystems = ["gpfs"]

  hca "mlx5_0" {
    numa = 0
    port "1" {
      rate       = 200
      link_layer = "InfiniBand"
      netdev     = "ib0"
    }
  }
  hca "mlx5_1" {
    numa = 1
    port "1" {
      rate       = 200
      link_layer = "InfiniBand"
      netdev     = "ib1"
    }
  }
}
