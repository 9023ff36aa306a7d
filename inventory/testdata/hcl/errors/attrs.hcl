defaults {
  colour = "red" # ERROR: Unsupported argument
  port   = "ssh" # ERROR: Invalid value for port
}

host "n1" {
  port                     = 70000     # ERROR: Invalid value for port
  groups                   = "gpfs"    # ERROR: Invalid value for groups
  vars                     = "x"       # ERROR: Invalid value for vars
  connect_timeout          = "soon"    # ERROR: Invalid value for connect_timeout
  strict_host_key_checking = "maybe"   # ERROR: Invalid value for strict_host_key_checking
  become                   = "perhaps" # ERROR: Invalid value for become
  address                  = var.x     # ERROR: Variables not allowed
  identity_file            = 3         # ERROR: Invalid value for identity_file
}

hosts "n2" {} # ERROR: Unsupported block type

group "g" {
  children = ["bad group"] # ERROR: Invalid group name
  hosts    = ["n[2:1]"]    # ERROR: Invalid host range
}
