# On gds02 both NICs sit on NUMA node 1, so GPU0 and GPU1 (NUMA node 0)
# reach the nearest RDMA NIC only across the inter-socket link (SYS): GDS
# loses most of its gain there. GPU2 and GPU3 stay PIX/PXB. Otherwise as
# gds-ready.hcl.

extends = "gds-ready.hcl"

node "gds02" {
  hca "mlx5_0" {
    numa        = 1
    pcie_switch = "sw1"
  }
  gpu "GPU1" {
    pcie = { mlx5_0 = "SYS" }
  }
}
