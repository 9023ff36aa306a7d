# NVMe-oF over RDMA vs TCP: the same namespace, the same benchmark, run
# twice switching only the transport, and the three acceptance lines
# (latency, CPU, bandwidth) side by side (docs/nvmeof.md).
#
#   prova apply runbooks/nvmeof-rdma-vs-tcp.hcl -i inventory.hcl \
#     --var target_address=10.68.20.10 --var nqn=nqn.2024-01.dev.wutz:target1 \
#     --var initiator=client1 --var line_rate_gbps=100
#
# Failure rule: a host whose step fails drops out of later steps unless the
# step says on_failure = "continue". Every step before the final cleanup
# says so, so the subsystem is always disconnected at the end, even when
# the target offers no RDMA or a benchmark fails; the run still reports
# every failed step.

runbook {
  description = "NVMe-oF: connect over TCP and RDMA in turn, benchmark both, compare latency, CPU and bandwidth, disconnect"
  # Bounds each attempt of every step without a timeout of its own: a
  # hung command fails on its host instead of blocking the run.
  step_timeout = "10m"
}

include "nvmeof_compare" {
  source = "lib/nvmeof-compare.hcl"
}
