stepp "shell" "a" { # ERROR: Unsupported block type
}

variable "x" {
  type    = string
  default = [1, 2] # ERROR: Invalid default value for variable
  colour  = "red" # ERROR: Unsupported argument
}

step "shell" "b" {
  depends_on = ["b"] # ERROR: Invalid depends_on reference
}

step "shell" "9bad" { # ERROR: Invalid step name
}
