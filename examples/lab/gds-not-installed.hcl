# GPU nodes without GPUDirect Storage installed: /usr/local/cuda/gds/tools
# is missing, so gdscheck is not found (status 127). Otherwise as
# gds-ready.hcl.

extends = "gds-ready.hcl"

gds {
  version   = "1.16"
  installed = false # no node has the CUDA toolkit's gds/tools: gdscheck is not found (status 127)
}
