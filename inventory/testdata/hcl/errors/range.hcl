host "n[3:1]" {} # ERROR: Invalid host range
host "m[1:4]" {
  address = "10.0.0.[1:2]" # ERROR: Address does not match host range
}
host "bad name" {} # ERROR: Invalid host name
host "p[01:4]" {}  # ERROR: Invalid host range
host "q[1:2]" {
  address = "10.0.0.5" # ERROR: Address does not match host range
}
