# GPFS verbsRdma, the reference case: 4 nodes, two HDR InfiniBand ports
# each (mlx5_0/1, mlx5_1/1), the same MLNX_OFED everywhere. The cluster
# comes up with verbsRdma disabled: a runbook sets
#   mmchconfig verbsRdma=enable,verbsPorts="mlx5_0/1 mlx5_1/1"
# restarts the daemons and then every node has RDMA to its 3 peers.
cluster {
  name    = "lab.prova"
  servers = 2
  nodes   = 4
}
