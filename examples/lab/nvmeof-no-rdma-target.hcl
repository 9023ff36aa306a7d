# The target offers TCP only: "nvme connect -t rdma" is reset by the target
# (no RDMA listener on port 4420) while TCP works. Otherwise as
# nvmeof-healthy.hcl.

extends = "nvmeof-healthy.hcl"

nvmeof_target {
  transports = ["tcp"]
}
