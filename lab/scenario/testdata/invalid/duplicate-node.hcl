node "gpfs02" {}
node "gpfs02" {}
