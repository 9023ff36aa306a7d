# One transport of the NVMe-oF comparison, included by nvmeof-compare.hcl
# once per transport (for_each = ["tcp", "rdma"]): the steps below become
# discover_tcp, offered_tcp, connect_tcp, path_tcp, lat_tcp, iops_tcp,
# seq_tcp, disconnect_tcp, then
# the same with _rdma. The same benchmarks, switching only the transport,
# with the same number of I/O queues (nvme-rdma caps them at the HCA's
# completion vectors, nvme-tcp does not).

step "nvme_connect" "connect" {
  hosts        = local.nvme_initiator
  transport    = each.value
  address      = var.target_address
  port         = var.target_port
  nqn          = var.nqn
  nr_io_queues = var.nr_io_queues
  on_failure   = "continue"
}

# The path the kernel really uses must be this transport, and only this one.
step "assert" "path" {
  hosts         = local.nvme_initiator
  when          = !step.connect.failed
  condition     = step.connect.transport == each.value
  error_message = "${var.nqn} on ${host.name} is connected over \"${coalesce(step.connect.transport, "nothing")}\", not ${each.value} only"
  on_failure    = "continue"
}

# Latency: one thread, one I/O in flight. With N in flight the average
# latency is at least N / IOPS (Little's law): only this run shows the
# transport's own latency.
step "bench_block" "lat" {
  hosts      = local.nvme_initiator
  serial     = 1
  when       = !step.connect.failed && try(step.connect.transport == each.value && step.connect.device != "", false)
  tool       = var.tool
  path       = step.connect.device
  mode       = "randread"
  block_size = var.block_size
  threads    = 1
  iodepth    = 1
  runtime    = var.runtime
  timeout    = var.bench_timeout
  repeat     = var.repeat
  numa_node  = var.numa_node
  on_failure = "continue"
}

# IOPS at high queue depth (reported, with the same-ceiling guard).
step "bench_block" "iops" {
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
  repeat     = var.repeat
  numa_node  = var.numa_node
  on_failure = "continue"
}

# Bandwidth, and CPU at equal work: both transports at line rate.
step "bench_block" "seq" {
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
  repeat     = var.repeat
  numa_node  = var.numa_node
  on_failure = "continue"
}

step "nvme_disconnect" "disconnect" {
  hosts      = local.nvme_initiator
  nqn        = var.nqn
  transport  = each.value
  on_failure = "continue"
}
