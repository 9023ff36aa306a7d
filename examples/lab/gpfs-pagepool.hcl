# GPFS with a pagepool gpfs04's HCA cannot register: its memory translation
# table holds at most 2G, and gpfs-verbs-rdma.hcl sets pagepool 4G by
# default (pagepool="2G" makes the fault go away). When its
# daemon starts, gpfs04 logs the two messages IBM documents
#   [E] VERBS RDMA Shutdown because pagepool could not be registered to Infiniband.
#   [E] VERBS RDMA Try increasing Infiniband device MTTs or reducing pagepool size.
# VERBS RDMA is not started there and it talks TCP to every peer.
cluster {
  name  = "lab.prova"
  nodes = 4
}

node "gpfs04" {
  faults {
    pagepool_register_limit = "2G"
  }
}
