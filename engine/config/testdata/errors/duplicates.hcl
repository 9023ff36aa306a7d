variable "v" {}
variable "v" {} # ERROR: Duplicate variable "v"

step "shell" "a" {
  command = "true"
}

step "shell" "a" { # ERROR: Duplicate step "a"
  command = "true"
}
