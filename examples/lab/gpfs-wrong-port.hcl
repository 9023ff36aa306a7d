# GPFS verbsPorts names a port that is not there: gpfs04's card has only
# mlx5_0 (port 1). With verbsPorts="mlx5_0/1 mlx5_1/1" gpfs04 logs the
# missing device and runs RDMA on mlx5_0 only; with a port it lacks
# (verbsPorts="mlx5_1/1" or "mlx5_0/2") VERBS RDMA does not start there
# and gpfs04 talks TCP to everyone, with no error outside mmfs.log.
cluster {
  name  = "lab.prova"
  nodes = 4
}

node "gpfs04" {
  hca "mlx5_1" {
    absent = true
  }
}
