# gds02's cufile.json lists only ib0's address (mlx5_0): cuFile sends every
# GDS read through mlx5_0, so GPU2 and GPU3 (PIX to mlx5_1 on NUMA node 1)
# reach their NIC across the NUMA interconnect (SYS), although the matrix
# shows each GPU next to some NIC. GPFS's verbsPorts still names both
# ports, which is fine for IBM's rule (issue 19.7). Otherwise as
# gds-ready.hcl.

extends = "gds-ready.hcl"

node "gds02" {
  cufile = "first_nic"
}
