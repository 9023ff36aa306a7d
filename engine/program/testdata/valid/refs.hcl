variable "n" {
  type    = number
  default = 2
}

step "cmd" "later" {
  command = step.first.stdout
}

step "cmd" "first" {
  command = "echo"
  count   = var.n
}

step "cmd" "cross" {
  command = join(",", [for h, r in per_host.first : "${h}=${r.rc}"])
  when    = length(step.first.lines) > 0
}
