# Transport faults, one per node, for testing how prova reports them.
cluster {
  name  = "lab.prova"
  nodes = 6
}

node "gpfs02" {
  faults {
    ssh_down = true                  # not listening: connection refused
  }
}

node "gpfs03" {
  faults {
    handshake_delay = "3s"           # slow to answer
  }
}

node "gpfs04" {
  faults {
    drop_on    = "mmfsadm|mpstat"    # closes the TCP connection when such a command starts
    drop_after = "200ms"
  }
}

node "gpfs05" {
  faults {
    hang_on = "mmfsadm test verbs conn"   # never returns until the client gives up
  }
}

node "gpfs06" {
  faults {
    rdma_connect = "firewall"        # RDMA connection setup fails (read by GPFS/NVMe simulators)
  }
}
