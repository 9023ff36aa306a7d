# One transport of the NVMe-oF comparison, included by nvmeof-compare.hcl
# once per transport (for_each = ["tcp", "rdma"]): the steps below become
# connect_tcp, path_tcp, bench_tcp, seq_tcp, disconnect_tcp, then the same
# with _rdma. The same benchmark, switching only the transport.

step "nvme_connect" "connect" {
  hosts      = local.nvme_initiator
  transport  = each.value
  address    = var.target_address
  port       = var.target_port
  nqn        = var.nqn
  on_failure = "continue"
}

# The path the kernel really uses must be this transport, and only this one.
step "assert" "path" {
  hosts         = local.nvme_initiator
  when          = !step.connect.failed
  condition     = step.connect.transport == each.value
  error_message = "${var.nqn} on ${host.name} is connected over \"${coalesce(step.connect.transport, "nothing")}\", not ${each.value} only"
  on_failure    = "continue"
}

step "bench" "bench" {
  hosts      = local.nvme_initiator
  serial     = 1
  when       = !step.connect.failed && try(step.connect.transport == each.value && step.connect.device != "", false)
  tool       = var.tool
  path       = step.connect.device
  mode       = "randread"
  block_size = var.block_size
  threads    = var.threads
  iodepth    = var.iodepth
  runtime    = var.runtime
  timeout    = var.bench_timeout
  on_failure = "continue"
}

step "bench" "seq" {
  hosts      = local.nvme_initiator
  serial     = 1
  when       = !step.connect.failed && try(step.connect.transport == each.value && step.connect.device != "", false)
  tool       = var.tool
  path       = step.connect.device
  mode       = "read"
  block_size = var.seq_block_size
  threads    = var.threads
  iodepth    = var.iodepth
  runtime    = var.runtime
  timeout    = var.bench_timeout
  on_failure = "continue"
}

step "nvme_disconnect" "disconnect" {
  hosts      = local.nvme_initiator
  nqn        = var.nqn
  transport  = each.value
  on_failure = "continue"
}
