defaults {
  hca "mlx5_0" {
    port "1" {
      link_layer = "Ethernet"
      netdev     = "ens1f0np0"
      rate       = 100
    }
  }
}
node "gpfs01" {
  hca "mlx5_0" {
    port "1" {
      state     = "Down"
      netdev_up = false
    }
  }
}
