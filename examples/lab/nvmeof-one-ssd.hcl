# NVMe-oF bench as nvmeof-healthy.hcl, but the target's namespace is backed
# by one NVMe SSD (the default: 1M 4K random-read IOPS). At 16 threads x
# iodepth 32 both transports reach that ceiling, so the latency of that run
# is 512 / 1M = ~510 us over both: only the queue-depth-1 run shows RDMA's
# ~25 us against TCP's ~90 us (issue 19 item 1, docs/nvmeof.md).
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
  iops          = 1000000
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
