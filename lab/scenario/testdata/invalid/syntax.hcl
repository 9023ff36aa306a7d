node "gpfs01" {
  cpus = 
}
