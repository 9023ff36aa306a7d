package sshconn

import (
	"path/filepath"
	"strings"

	"github.com/provadev/prova/inventory"
)

// TargetFor says how to reach an inventory host: its address and the
// connection settings the inventory gives (what it leaves unset comes from
// ssh_config). Relative key and known_hosts paths, which the inventory has
// already joined with its own directory, are made absolute so that they are
// never read relative to the home directory; identity files named in the
// inventory are the only ones tried (IdentitiesOnly), as with Ansible's
// ansible_ssh_private_key_file.
func TargetFor(h *inventory.Host) Target {
	c := h.Connection
	t := Target{
		Name:                  h.Name,
		Address:               h.Address,
		Port:                  c.Port,
		User:                  c.User,
		ProxyJump:             c.ProxyJump,
		ProxyCommand:          c.ProxyCommand,
		StrictHostKeyChecking: c.StrictHostKeyChecking,
		ConnectTimeout:        c.ConnectTimeout,
		IdentitiesOnly:        len(c.IdentityFiles) > 0,
	}
	for _, f := range c.IdentityFiles {
		t.IdentityFiles = append(t.IdentityFiles, absPath(f))
	}
	if c.KnownHosts != "" {
		t.KnownHostsFiles = []string{absPath(c.KnownHosts)}
	}
	return t
}

func absPath(p string) string {
	if p == "" || filepath.IsAbs(p) || strings.HasPrefix(p, "~") {
		return p
	}
	if a, err := filepath.Abs(p); err == nil {
		return a
	}
	return p
}
