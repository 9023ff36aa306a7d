# GPFS without OFED on one node: gpfs04 has the HCAs but no MLNX_OFED
# (ofed_info and ibdev2netdev are missing too). Its daemon logs that the
# verbs library was not found and talks TCP; the other three use RDMA
# among themselves.
cluster {
  name  = "lab.prova"
  nodes = 4
}

node "gpfs04" {
  ofed = null
}
