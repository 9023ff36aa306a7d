# A small GPFS cluster: four NSD servers, one client behind a bastion.
defaults {
  user                     = "root"
  port                     = 22
  identity_file            = "keys/id_ed25519"
  known_hosts              = "known_hosts"
  ssh_config               = "/etc/prova/ssh_config"
  strict_host_key_checking = "yes"
  connect_timeout          = "10s"
  become                   = false
  vars = {
    site = "lab"
    tier = "default"
  }
}

group "all" {
  vars = { tier = "all", ntp_server = "10.0.0.1" }
}

group "gpfs" {
  children = ["nsd_servers", "clients"]
  vars     = { tier = "gpfs", pagepool = "4G" }
}

group "nsd_servers" {
  hosts = ["nsd-extra"]
  user  = "gpfsadmin"
  vars  = { pagepool = "16G", tier = "nsd" }
}

host "gpfs[01:04]" {
  address = "10.0.0.[11:14]"
  groups  = ["nsd_servers"]
  vars    = { role = "nsd" }
}

host "client1" {
  address         = "10.0.1.21"
  user            = "admin"
  port            = 2222
  proxy_jump      = "bastion"
  identity_file   = ["~/.ssh/id_ed25519", "/etc/prova/id_rsa"]
  become          = true
  become_user     = "gpfs"
  connect_timeout = 30
  groups          = ["clients"]
  vars = {
    role     = "client"
    pagepool = "1G"
    rdma     = { ports = ["mlx5_0/1", "mlx5_1/1"], enabled = true, mtu = 4096 }
  }
}

host "bastion" {
  address                  = "192.0.2.10"
  strict_host_key_checking = "accept-new"
}
