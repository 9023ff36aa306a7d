group "a" {
  children = ["b"]
}

group "b" {
  children = ["c"]
}

group "c" {
  children = ["a"] # ERROR: Group cycle
}

group "d" {
  children = ["all"] # ERROR: Invalid child group
}
