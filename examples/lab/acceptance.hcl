# Acceptance and re-acceptance: four GPFS nodes with one 100 GbE RoCE port
# each and an NVMe-oF target offering RDMA and TCP. Grow it with
# `prova lab expand --nodes 2`: gpfs05 joins healthy, gpfs06 joins behind a
# firewall that blocks RDMA connection setup, so GPFS silently talks TCP
# to it (runbooks/rdma-acceptance.hcl with --baseline names it).
cluster {
  name        = "lab.prova"
  node_prefix = "gpfs"
  servers     = 2
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
  memory_gib  = 256
  cpus        = 32
  numa_nodes  = 2
  ofed        = "MLNX_OFED_LINUX-23.10-1.1.9.0"
  filesystems = ["gpfs"]
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

node "gpfs06" {
  faults {
    rdma_connect = "firewall"
  }
}
