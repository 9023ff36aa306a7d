host "n[1:3]" {}
host "n2" {} # ERROR: Duplicate host

group "g" {}
group "g" {} # ERROR: Duplicate group

defaults {}
defaults {} # ERROR: Duplicate defaults block
