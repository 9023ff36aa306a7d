# gds02's GPFS daemon runs without verbsGPUDirectStorage (set to no for
# that node): gdscheck is happy, cufile.json lists the RDMA addresses, yet
# GPFS serves no read into GPU memory. IBM requires
# verbsGPUDirectStorage=yes (issue 19.5). Otherwise as gds-ready.hcl.

extends = "gds-ready.hcl"

gpfs {
  node "gds02" {
    config = { verbsGPUDirectStorage = "no" }
  }
}
