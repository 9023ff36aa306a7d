# gds02's verbsPorts names only mlx5_0/1 while its cufile.json lists the
# addresses of both ports: GDS reads through mlx5_1 fail with an I/O error
# (IBM: the addresses of rdma_dev_addr_list must be on devices verbsPorts
# lists; issue 19.5). Otherwise as gds-ready.hcl.

extends = "gds-ready.hcl"

gpfs {
  node "gds02" {
    config = { verbsPorts = "mlx5_0/1" }
  }
}
