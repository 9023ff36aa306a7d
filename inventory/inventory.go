package inventory

import (
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
)

// Connection holds SSH connection settings. Any field may be empty or zero,
// which means "not set": the transport then falls back to ssh_config and
// OpenSSH defaults.
type Connection struct {
	User          string
	Port          int
	IdentityFiles []string
	ProxyJump     string
	// KnownHosts is a path, joined with the inventory file's directory when
	// relative.
	KnownHosts string
	// SSHConfig is a path, joined with the inventory file's directory when
	// relative.
	SSHConfig string
	// StrictHostKeyChecking is "", "yes", "accept-new" or "no".
	StrictHostKeyChecking string
	ConnectTimeout        time.Duration
	Become                bool
	BecomeUser            string
	// ProxyCommand is ssh's ProxyCommand, from -o ProxyCommand=... in
	// ansible_ssh_common_args / ansible_ssh_extra_args.
	ProxyCommand string
	// Local is ansible_connection=local: commands run on the controller.
	Local bool
	// Password (ansible_password) and BecomePassword
	// (ansible_become_pass) are sensitive: never rendered, never in JSON.
	Password       string
	BecomePassword string
}

// Host is one resolved inventory host.
type Host struct {
	Name string
	// Address is the network address to connect to; it defaults to Name.
	Address string
	// Connection is the host's own settings merged over those of its groups
	// and the inventory defaults (the host wins).
	Connection Connection
	// Groups lists the names of every group the host belongs to, directly or
	// through child groups, sorted, without "all". A host that belongs to no
	// other group is in "ungrouped".
	Groups []string
	// Vars are merged: defaults < "all" group < other groups (parents before
	// children, then alphabetical) < host vars.
	Vars      map[string]cty.Value
	DeclRange hcl.Range
}

// Group is one resolved inventory group.
type Group struct {
	Name string
	// Hosts lists every member, including the members of descendant groups,
	// in inventory declaration order.
	Hosts []string
	// Children lists the direct child groups, sorted. The children of "all"
	// are the groups that have no other parent.
	Children []string
	// Vars are the group's own variables (not merged with its parents').
	Vars map[string]cty.Value
	// Connection holds the group's own connection settings (from a group
	// block, or ansible_* group variables in Ansible inventories).
	Connection Connection
	DeclRange  hcl.Range
}

// Inventory is a loaded, resolved inventory. Treat it as read-only: Limit
// returns a new Inventory that shares Host values with the original.
type Inventory struct {
	// Hosts are in declaration order (the order in which hosts are first
	// mentioned in the source).
	Hosts []*Host
	// Groups includes the implicit "all" and "ungrouped".
	Groups map[string]*Group
	// Defaults are the connection defaults of an HCL defaults block.
	Defaults Connection
	// Files are the source files read.
	Files []string
	// Hash is the hex SHA-256 of the source bytes (and, once GPFS nodes
	// are merged, of the nodes found).
	Hash string
	// GPFS are the GPFS clusters the inventory takes nodes from
	// (gpfs_cluster blocks, --from-gpfs), in order; GPFSFound is what
	// WithGPFS merged, one per source.
	GPFS      []GPFSSource
	GPFSFound []*GPFSCluster

	// reparse parses the source again with more GPFS sources; regpfs with
	// the clusters found (HCL inventories only).
	reparse func(*gpfsInput) (*Inventory, hcl.Diagnostics)
	regpfs  func([]*GPFSCluster) (*Inventory, hcl.Diagnostics)

	hostIndex map[string]int
}

// Host returns the host with the given name.
func (inv *Inventory) Host(name string) (*Host, bool) {
	i, ok := inv.index()[name]
	if !ok {
		return nil, false
	}
	return inv.Hosts[i], true
}

// index returns a map from host name to position in Hosts. An Inventory built
// by this package carries one; a hand-built Inventory gets a fresh one.
func (inv *Inventory) index() map[string]int {
	if inv.hostIndex != nil && len(inv.hostIndex) == len(inv.Hosts) {
		return inv.hostIndex
	}
	return buildIndex(inv.Hosts)
}

func buildIndex(hosts []*Host) map[string]int {
	m := make(map[string]int, len(hosts))
	for i, h := range hosts {
		m[h.Name] = i
	}
	return m
}
