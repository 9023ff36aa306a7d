host "n1" {}
host "n2" {}
