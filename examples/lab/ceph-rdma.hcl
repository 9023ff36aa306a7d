# A Ceph cluster someone moved onto the RDMA messenger: ceph02's ceph.conf
# sets ms_type = async+rdma in [global], ceph03 sets ms_cluster_type =
# async+rdma in its [osd] section. The Ceph RDMA guard fails both (see
# docs/gds.md); ceph01 stays on TCP.
cluster {
  name        = "ceph.prova"
  node_prefix = "ceph"
  nodes       = 3
  servers     = 0
}

defaults {
  filesystems = ["ceph"]
}

ceph {
  ms_type = "async+posix"

  node "ceph02" {
    ms_type = "async+rdma"
  }
  node "ceph03" {
    section         = "osd"
    ms_type         = "async+posix"
    ms_cluster_type = "async+rdma"
  }
}

node "ceph01" {
  groups = ["ceph", "ceph_mon"]
}
node "ceph02" {
  groups = ["ceph", "ceph_osd"]
}
node "ceph03" {
  groups = ["ceph", "ceph_osd"]
}
