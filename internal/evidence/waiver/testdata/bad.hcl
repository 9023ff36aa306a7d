waiver "bad-date" {
  assertion     = "assert.peers"
  justification = "x"
  expires       = "31/12/2026"
}

waiver "empty-why" {
  assertion     = "assert.peers"
  justification = "   "
  expires       = "2026-12-31"
}

waiver "extra" {
  assertion     = "assert.peers"
  justification = "x"
  expires       = "2026-12-31"
  owner         = "ops"
}

waiver "glob" {
  assertion     = "assert.[peers"
  hosts         = "gpfs01"
  justification = "x"
  expires       = "2026-12-31"
}

waiver "extra" {
  assertion     = "x"
  justification = "x"
  expires       = "2026-12-31"
}

waiver "no-expiry" {
  assertion     = "x"
  justification = "x"
}
