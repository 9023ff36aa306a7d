waiver "gpfs04-peers" {
  assertion     = "assert.rdma_peers"
  hosts         = ["gpfs04"]
  justification = "OFED upgrade scheduled CHG-1234"
  expires       = "2026-12-31"
}

waiver "gpfs03-latency" {
  assertion     = "compare.*/latency*"
  hosts         = ["gpfs03"]
  justification = "switch firmware CHG-2001"
  expires       = "2026-11-01"
}

waiver "old-cpu" {
  assertion     = "cpu"
  justification = "mpstat sampling too short"
  expires       = "2027-01-31"
}
