step "cmd" "one" { # ERROR: Reference cycle between steps
  command = step.two.stdout
}

step "cmd" "two" {
  command    = "x"
  depends_on = [step.one]
}

step "cmd" "self" {
  command = step.self.stdout # ERROR: Self-referential step
}
