# Waivers for the November acceptance run.
waiver "gpfs05-ofed" {
  assertion     = "assert.peers"
  hosts         = ["gpfs05"]
  justification = "OFED upgrade scheduled CHG-1234"
  expires       = "2026-12-31"
}

waiver "nsd-latency" {
  assertion     = "compare.*/latency"
  hosts         = ["nsd0?"]
  justification = "switch firmware CHG-2001"
  expires       = "2026-11-01T00:00:00Z"
}

waiver "old-cpu" {
  assertion     = "cpu"
  justification = "mpstat sampling too short"
  expires       = "2025-01-31"
}
