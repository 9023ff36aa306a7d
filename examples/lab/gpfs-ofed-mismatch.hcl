# GPFS with mismatched OFED: gpfs04 runs an older MLNX_OFED than the
# rest. VERBS RDMA starts everywhere, but connection setup between
# gpfs04 and its peers fails (mmfs.log: "closed connection ... error 73")
# and that pair talks TCP.
cluster {
  name  = "lab.prova"
  nodes = 4
}

node "gpfs04" {
  ofed = "MLNX_OFED_LINUX-5.4-3.1.0.0"
}
