node "gpfs02" {
  memory_gib = 512
}
