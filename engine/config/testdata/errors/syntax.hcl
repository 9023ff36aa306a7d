step "shell" "a" {
  command = "x" "y" # ERROR: Missing newline after argument
}
