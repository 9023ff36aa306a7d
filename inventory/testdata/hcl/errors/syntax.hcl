host "n1" {
  address = "10.0.0.1"
  port = = 22 # ERROR: Invalid expression
}
