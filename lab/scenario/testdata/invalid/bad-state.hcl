node "gpfs03" {
  hca "mlx5_1" {
    port "1" {
      state = "Broken"
    }
  }
}
