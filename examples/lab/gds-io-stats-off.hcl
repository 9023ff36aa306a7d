# gds02's nvidia-fs runs with its IO stats off (rw_stats_enabled=0, the
# module's default): /proc/driver/nvidia-fs/stats counts no read, so a
# gdsio read cannot prove the bytes went GPU-direct. Otherwise as
# gds-ready.hcl (gds01 too: io_stats is cluster-wide, so both nodes
# warn).

extends = "gds-ready.hcl"

gds {
  io_stats = false
}
