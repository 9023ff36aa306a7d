host "n1" {
  groups = ["gpfs"]
}

group "gpfs" {
  children = ["nsd_servers", "clients"] # ERROR: Undefined group
}

group "nsd_servers" {}
