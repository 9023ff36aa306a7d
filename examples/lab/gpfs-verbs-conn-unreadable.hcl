# The first real cluster whose `mmfsadm test verbs conn` prints a layout
# prova has never seen: gpfs04's mmfsadm prints numbered records without a
# header ("[0] 10.10.1.11 gpfs01 qp=0x1a1 RTS"). RDMA works everywhere; the
# point is that prova must fail the step with "prova could not read
# `mmfsadm test verbs conn` on gpfs04, line 3: ..." and point at
# `prova collect`, never report TCP fallback. Other layouts:
# verbs_conn_layout = "conns_only" (only the "conns" spelling works) and
# "empty" (nothing printed although RDMA is started).
cluster {
  name    = "lab.prova"
  servers = 2
  nodes   = 4
}

node "gpfs04" {
  faults {
    verbs_conn_layout = "unreadable"
  }
}
