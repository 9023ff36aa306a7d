# host03 negotiated 25 Gb/s instead of 100: its large sequential reads are
# capped at that rate over both transports, the other hosts reach 90-95%
# of 100 Gb/s. Otherwise as nvmeof-healthy.hcl.

extends = "nvmeof-healthy.hcl"

node "host03" {
  hca "mlx5_0" {
    port "1" {
      rate = 25
    }
  }
}
