# Lossless network incomplete (PFC/ECN missing): RDMA connects, but its
# latency is high and erratic (60-400 µs, long tails) and bandwidth drops;
# TCP is unaffected. Otherwise as nvmeof-healthy.hcl.

extends = "nvmeof-healthy.hcl"

defaults {
  faults {
    rdma_connect = "lossless"
  }
}
