node "gpfs04" {
  faults {
    drop_on = "mmfsadm("
  }
}
