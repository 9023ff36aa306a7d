# gds02 has GDS installed but no GPU (and so no nvidia_fs and no
# nvidia-smi): gdscheck prints 'No GPU found in the system' and compat-only
# file systems. Otherwise as gds-ready.hcl.

extends = "gds-ready.hcl"

gds {
  version   = "1.16"
  installed = true # also on gds02, which has no GPU
}

node "gds02" {
  nvidia_fs = false
  gpu "GPU0" {
    absent = true
  }
  gpu "GPU1" {
    absent = true
  }
  gpu "GPU2" {
    absent = true
  }
  gpu "GPU3" {
    absent = true
  }
}
