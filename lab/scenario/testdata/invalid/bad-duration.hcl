node "gpfs02" {
  faults {
    handshake_delay = "soon"
  }
}
