# A Ceph cluster on the mainstream messenger: every node's ceph.conf keeps
# ms_type = async+posix (TCP), ceph03 also names the cluster and public
# messengers in its [osd] section. The Ceph RDMA guard passes.
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

  node "ceph03" {
    section         = "osd"
    ms_cluster_type = "async+posix"
    ms_public_type  = "async+posix"
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
