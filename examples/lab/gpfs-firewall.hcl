# GPFS behind a firewall: RDMA connection setup to and from gpfs04 is
# refused (mmfs.log: rdma_connect failed, "closed connection ... error
# 111"); VERBS RDMA reports started on every node, yet gpfs04 has no RDMA
# peer. Use rdma_connect = "lossless" for an incomplete PFC/ECN setup
# (connection timed out, error 233).
cluster {
  name  = "lab.prova"
  nodes = 4
}

node "gpfs04" {
  faults {
    rdma_connect = "firewall"
  }
}
