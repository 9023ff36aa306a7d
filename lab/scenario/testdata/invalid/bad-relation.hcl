defaults {
  gpu "GPU0" {
    pcie = { mlx5_0 = "NEAR" }
  }
}
