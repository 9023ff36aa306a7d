# NVMe-oF bench as nvmeof-healthy.hcl, but the target's namespace is backed
# by one NVMe SSD (the default: 1M 4K random-read IOPS). At 16 threads x
# iodepth 32 both transports reach that ceiling, so the latency of that run
# is 512 / 1M = ~510 us over both: only the queue-depth-1 run shows RDMA's
# ~25 us against TCP's ~90 us (issue 19 item 1, docs/nvmeof.md).

extends = "nvmeof-healthy.hcl"

nvmeof_target {
  iops = 1000000
}
