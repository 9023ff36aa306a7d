# gds02 has no nvidia_fs kernel module loaded: gdscheck prints no nvidia_fs
# version and no file system is served by GPUDirect (compat only).
# Otherwise as gds-ready.hcl.

extends = "gds-ready.hcl"

node "gds02" {
  nvidia_fs = false
}
