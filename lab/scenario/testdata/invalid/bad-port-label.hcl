defaults {
  hca "mlx5_0" {
    port "one" {}
  }
}
