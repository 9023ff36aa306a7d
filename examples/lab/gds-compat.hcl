# gds02 keeps NVIDIA's cufile.json as installed: rdma_dev_addr_list is
# empty, so cuFile serves its GPFS mount in compatibility mode (every read
# through a bounce buffer in host memory) although gdscheck lists IBM
# Spectrum Scale as "dmabuf, compat" and verification succeeds. Otherwise
# as gds-ready.hcl.

extends = "gds-ready.hcl"

node "gds02" {
  cufile = "default"
}
