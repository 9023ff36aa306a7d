defaults {
  hca "mlx5_0" {
    port "1" {
      rate = 123
    }
  }
}
