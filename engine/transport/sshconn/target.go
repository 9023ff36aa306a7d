package sshconn

import (
	"time"
)

// Target says how to reach one host. Zero fields are filled from
// ssh_config (see ResolveTarget) and then from defaults; fields set here
// (from the inventory) win over ssh_config, as in Ansible.
type Target struct {
	Name    string // inventory name, used in messages and as the ssh_config alias when Address is empty
	Address string // host name or IP to connect to (also the ssh_config alias when set)
	Port    int    // default 22
	User    string // default: the local user

	IdentityFiles  []string // private keys; "key-cert.pub" next to a key is its certificate
	IdentitiesOnly bool     // use only IdentityFiles, not every key the agent holds

	// ProxyJump is a comma-separated chain of jump hosts, each
	// [user@]host[:port], tried in order; "none" disables a ProxyJump
	// from ssh_config. Each hop is resolved through ssh_config and
	// verified against known_hosts like the target itself.
	ProxyJump string

	// ProxyCommand is run with /bin/sh -c and its stdin and stdout are
	// the connection (%h, %p, %r, %n and %% expanded), as ssh does. It
	// comes from ssh_config; ProxyJump and ProxyCommand exclude each
	// other (the first one in the file wins).
	ProxyCommand string

	// NoAgent is IdentityAgent none: the agent is not used for this host.
	// IdentityAgent is the agent socket to use instead of SSH_AUTH_SOCK.
	NoAgent       bool
	IdentityAgent string

	KnownHostsFiles []string // default ~/.ssh/known_hosts; the first one receives accept-new keys
	// StrictHostKeyChecking is "yes" (default; OpenSSH's "ask" means yes
	// here), "accept-new" or "no".
	StrictHostKeyChecking string

	ConnectTimeout      time.Duration // TCP connect plus SSH handshake; default 10 s
	ServerAliveInterval time.Duration // keepalive period; default 15 s; negative disables
	ServerAliveCountMax int           // unanswered keepalives before the connection is dropped; default 3
}

// Defaults applied after ssh_config.
const (
	DefaultPort                = 22
	DefaultConnectTimeout      = 10 * time.Second
	DefaultServerAliveInterval = 15 * time.Second
	DefaultServerAliveCountMax = 3
	DefaultMaxSessions         = 10
	DefaultKillGrace           = 2 * time.Second
)

// Host-key checking policies.
const (
	StrictYes       = "yes"
	StrictAcceptNew = "accept-new"
	StrictNo        = "no"
)

// display names the target in messages: "name (address:port)".
func (t Target) display() string {
	a := hostPort(t.Address, t.Port)
	if t.Name == "" || t.Name == t.Address {
		return a
	}
	return t.Name + " (" + a + ")"
}
