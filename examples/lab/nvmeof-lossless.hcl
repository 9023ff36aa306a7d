# Lossless network incomplete (PFC/ECN missing): RDMA connects, but its
# latency is high and erratic (60-400 µs, long tails) and bandwidth drops;
# TCP is unaffected. Otherwise as nvmeof-healthy.hcl.
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

  faults {
    rdma_connect = "lossless"
  }
}
