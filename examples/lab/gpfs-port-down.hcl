# GPFS port down: gpfs04 has a single-port card (mlx5_0) whose cable is
# pulled (state Down, physical state Polling). VERBS RDMA cannot open any
# verbsPorts entry there, does not start, and gpfs04 falls back to TCP.
cluster {
  name  = "lab.prova"
  nodes = 4
}

node "gpfs04" {
  hca "mlx5_0" {
    port "1" {
      state = "Down"
    }
  }
  hca "mlx5_1" {
    absent = true
  }
}
