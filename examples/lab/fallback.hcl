# GPFS silent fallback to TCP: verbsPorts = "mlx5_0/1 mlx5_1/1", but on
# gpfs03 the port mlx5_1/1 is down (cable pulled, Polling), and on gpfs04 the
# HCA mlx5_1 is not there at all. GPFS starts anyway and talks TCP to them.
cluster {
  name  = "lab.prova"
  nodes = 4
}

node "gpfs03" {
  hca "mlx5_1" {
    port "1" {
      state = "Down"          # physical_state defaults to Polling on InfiniBand
    }
  }
}

node "gpfs04" {
  hca "mlx5_1" {
    absent = true
  }
}
