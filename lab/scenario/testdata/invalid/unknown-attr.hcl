defaults {
  memory_gib = 256
  memroy_gb  = 512
}
