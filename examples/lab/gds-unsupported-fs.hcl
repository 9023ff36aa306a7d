# gds02 mounts CephFS only: GPUDirect Storage does not support it (gdscheck
# does not even list it), so the site's GPFS is not there to be served.
# Otherwise as gds-ready.hcl.

extends = "gds-ready.hcl"

node "gds02" {
  filesystems = ["ceph"]
}
