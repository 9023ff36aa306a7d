# The NVMe-oF pair of nvmeof-healthy.hcl on an InfiniBand fabric: the
# "TCP" run goes over IPoIB (ib0), so the runbook judges by prova-ipoib/1
# and the table says the TCP column is IPoIB's (issue 19.7).

extends = "nvmeof-healthy.hcl"

defaults {
  hca "mlx5_0" {
    numa = 0
    port "1" {
      rate       = 200
      link_layer = "InfiniBand"
      netdev     = "ib0"
    }
  }
}
