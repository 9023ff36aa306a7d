# NVMe-oF bench: four hosts with one 100 GbE RoCE port each and one local
# NVMe drive (nvme0), and a Linux nvmet target offering RDMA and TCP. Run
# the same benchmark over both transports and compare (docs/lab-nvmeof.md).
# The namespace is striped over four SSDs (4M IOPS), so the high-queue-depth
# 4K run reaches each transport's own ceiling; nvmeof-one-ssd.hcl has the
# default one-SSD namespace, where both transports hit the same 1M ceiling.
cluster {
  name        = "nvmeof.lab"
  node_prefix = "host"
  servers     = 0
  nodes       = 4
  network     = "10.10.0.0/16"
}

nvmeof_target {
  nqn           = "nqn.2024-01.dev.prova:lab-target1"
  address       = "10.10.0.100" # text only, never contacted
  port          = 4420
  transports    = ["rdma", "tcp"]
  namespaces_gb = [3840]
  iops          = 4000000
}

defaults {
  cpus        = 32
  numa_nodes  = 2
  filesystems = []
  nvme_drives = 1

  hca "mlx5_0" {
    numa = 0
    port "1" {
      rate       = 100
      link_layer = "Ethernet"
      netdev     = "ens1f0np0"
    }
  }
}
