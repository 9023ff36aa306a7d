# OFED differs between nodes: gpfs02 runs an older MLNX_OFED, gpfs03 has
# none (inbox rdma-core only: no ofed_info, no ibdev2netdev).
cluster {
  name  = "lab.prova"
  nodes = 3
}

node "gpfs02" {
  ofed = "MLNX_OFED_LINUX-5.4-3.1.0.0"
}

node "gpfs03" {
  ofed = null
}
