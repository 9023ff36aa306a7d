// Package inventory loads the hosts prova works on: their names, addresses,
// SSH connection settings, groups and variables. It reads prova's HCL
// inventory, imports Ansible INI and YAML inventories, builds an inventory
// from a "-i host1,host2" list, selects hosts with Ansible host patterns
// (Select, SelectList, Limit) and renders the resolved result as HCL
// (Render) or JSON (MarshalJSON).
//
// It does not connect to hosts, read ssh_config or known_hosts files (it
// only records their paths), expand "~", or evaluate runbook expressions; it
// imports nothing from engine or internal. Every problem in a source file is
// an hcl.Diagnostic whose Subject points into that file.
//
// An HCL file in the literal subset inventories are written in is parsed
// by internal/hclfast, which makes exactly the syntax tree hclsyntax makes
// or declines; every other file, and every file with a syntax problem, is
// parsed by hclsyntax, the reference and the only source of syntax
// diagnostics.
//
// LoadWith can keep parsed HCL inventories in a cache directory (cache.go,
// cachecodec.go): an entry is served only when every source file's SHA-256,
// the prova build and the entry's checksum match, and an inventory with any
// diagnostic is never stored. The package does not choose the directory
// (the CLI does) and never deletes entries of other paths.
//
// # HCL format
//
//	defaults {                      # optional, at most one
//	  user                     = "root"
//	  port                     = 22
//	  identity_file            = ["~/.ssh/id_ed25519"] # string or list
//	  proxy_jump               = "bastion"
//	  known_hosts              = "known_hosts"          # relative to this file
//	  ssh_config               = "ssh_config"           # relative to this file
//	  strict_host_key_checking = "yes"                  # "yes", "accept-new", "no" or a bool
//	  connect_timeout          = "10s"                  # duration or seconds
//	  become                   = false
//	  become_user              = "root"
//	  vars                     = { site = "lab" }
//	}
//
//	host "gpfs[01:04]" {            # a range label declares one host per name
//	  address = "10.0.0.[11:14]"    # optional; with a range label, a range of the same length
//	  port    = 2222                # any connection attribute of defaults
//	  groups  = ["nsd_servers", "gpfs"]
//	  vars    = { role = "nsd" }
//	}
//
//	group "nsd_servers" {           # optional; groups named by hosts exist without a block
//	  children = ["other_group"]    # must be defined (a block, or named by a host)
//	  hosts    = ["extra1"]         # more members; a name not declared yet becomes a host
//	  user     = "gpfsadmin"        # any connection attribute of defaults
//	  vars     = { pagepool = "16G" }
//	}
//
// Values in vars are any HCL values without variables or functions.
// Relative identity_file, known_hosts and ssh_config paths are joined with
// the inventory file's directory; absolute and "~" paths are kept.
//
// # Resolution
//
// Every host is in the implicit group "all"; a host in no other group is in
// "ungrouped". A host in a child group is also in its parents. Settings are
// merged, later winning: defaults, group "all", the host's other groups
// (shallower groups first, then by name), the host. Vars merge per key
// (a host's "x" replaces a group's "x" whole). Connection fields merge
// per field; a field given explicitly (even "become = false") overrides.
//
// # Ansible inventories
//
// INI: [group], [group:vars] and [group:children] sections; host lines
// "name[:port] key=value ..."; comments starting with "#" or ";" and inline
// comments (" #" outside quotes). Values are converted as Ansible's literal
// parsing does for the common cases, in host lines and :vars sections alike:
// a decimal number becomes a number ("007" stays a string), True and False
// become booleans, a quoted value becomes the string inside the quotes, and
// anything else (including true, yes, lists and dicts) stays a string.
//
// YAML (and JSON): top-level groups (usually "all") with hosts, children and
// vars; host names may carry ranges and ":port"; YAML types are kept.
//
// In both, these variables set connection fields instead of vars:
// ansible_host (the address, on hosts only), ansible_port, ansible_user,
// ansible_ssh_private_key_file, ansible_become, ansible_become_user,
// ansible_timeout, ansible_host_key_checking and their older ansible_ssh_* /
// ansible_sudo* spellings. ansible_ssh_common_args and ansible_ssh_extra_args
// stay vars, and their -J, ProxyJump, StrictHostKeyChecking and
// UserKnownHostsFile options set the connection too. Other ansible_*
// variables are plain vars.
//
// # GPFS clusters
//
//	gpfs_cluster {                  # any number, one per admin node
//	  admin       = "gpfs01"        # required: the node asked
//	  group       = "gpfs"          # joined by every node (default)
//	  short_names = false           # host name = admin name up to the first dot
//	  max_age     = "0s"            # a cached answer younger than this stands in
//	}
//
// The block records a GPFSSource (Inventory.GPFS); this package does not
// ask the cluster. The caller (internal/gpfsinv) does and hands the
// answers to WithGPFS, which parses the file again with every node of
// each cluster: named by its admin name (its address), with gpfs_* vars,
// in the source's group, the groups of its node classes and the
// designation groups quorum, manager, nsd_servers and clients (see
// GroupClients). What the file says of a discovered host wins: its
// address, its vars per key; groups are the union. FromGPFS and AddGPFS
// are --from-gpfs without and with a file.
//
// # Host patterns
//
// See Inventory.Select.
package inventory
