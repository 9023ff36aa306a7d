package inventory

// connField is a bit set recording which Connection fields a source set, so
// that an explicit "become = false" on a host overrides "become = true" on a
// group.
type connField uint16

const (
	fUser connField = 1 << iota
	fPort
	fIdentity
	fProxyJump
	fKnownHosts
	fSSHConfig
	fStrict
	fTimeout
	fBecome
	fBecomeUser
	fProxyCommand
	fLocal
	fPassword
	fBecomePassword
)

// connDef is a Connection together with the set of fields given in one
// place of the source.
type connDef struct {
	c   Connection
	set connField
}

// over applies the fields set in o on top of d.
func (d *connDef) over(o connDef) {
	if o.set&fUser != 0 {
		d.c.User = o.c.User
	}
	if o.set&fPort != 0 {
		d.c.Port = o.c.Port
	}
	if o.set&fIdentity != 0 {
		d.c.IdentityFiles = append([]string(nil), o.c.IdentityFiles...)
	}
	if o.set&fProxyJump != 0 {
		d.c.ProxyJump = o.c.ProxyJump
	}
	if o.set&fKnownHosts != 0 {
		d.c.KnownHosts = o.c.KnownHosts
	}
	if o.set&fSSHConfig != 0 {
		d.c.SSHConfig = o.c.SSHConfig
	}
	if o.set&fStrict != 0 {
		d.c.StrictHostKeyChecking = o.c.StrictHostKeyChecking
	}
	if o.set&fTimeout != 0 {
		d.c.ConnectTimeout = o.c.ConnectTimeout
	}
	if o.set&fBecome != 0 {
		d.c.Become = o.c.Become
	}
	if o.set&fBecomeUser != 0 {
		d.c.BecomeUser = o.c.BecomeUser
	}
	if o.set&fProxyCommand != 0 {
		d.c.ProxyCommand = o.c.ProxyCommand
	}
	if o.set&fLocal != 0 {
		d.c.Local = o.c.Local
	}
	if o.set&fPassword != 0 {
		d.c.Password = o.c.Password
	}
	if o.set&fBecomePassword != 0 {
		d.c.BecomePassword = o.c.BecomePassword
	}
	d.set |= o.set
}

// validStrict reports whether s is an accepted StrictHostKeyChecking value.
func validStrict(s string) bool {
	switch s {
	case "yes", "accept-new", "no":
		return true
	}
	return false
}
