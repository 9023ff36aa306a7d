# Groups at the same depth apply by name; deeper groups win over shallower.
defaults {
  become = true
  vars   = { x = "defaults", y = "defaults", z = "defaults" }
}

group "all" {
  vars = { x = "all", y = "all" }
}

group "alpha" {
  vars = { x = "alpha", w = "alpha" }
}

group "beta" {
  become = false
  vars   = { x = "beta", w = "beta" }
}

group "parent" {
  children = ["zchild"]
  vars     = { v = "parent", x = "parent" }
}

group "zchild" {
  vars = { v = "zchild" }
}

host "h1" {
  groups = ["beta", "alpha"]
}

host "h2" {
  groups = ["alpha", "zchild"]
  vars   = { w = "host" }
}

host "h3" {}
