step "cmdd" "a" { # ERROR: Unknown step module
  command = "true"
}

step "cmd" "b" { # ERROR: Missing required argument
  comand = "true" # ERROR: Unsupported argument
}

step "cmd" "c" {
  command = "x"
  count   = "many" # ERROR: Incorrect attribute value type
}

step "cmd" "d" {
  command = step.nosuch.stdout # ERROR: Reference to undeclared step
}

step "cmd" "e" {
  command = var.missing # ERROR: Unsupported attribute
}

step "cmd" "f" {
  command = "x"
  on_failure = "explode" # ERROR: Invalid on_failure
}

step "cmd" "g" { # ERROR: Invalid count
  command = "x"
  count = -1
}
