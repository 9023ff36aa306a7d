package inventory

import (
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
)

// ansibleConn takes the Ansible connection variables out of vars and applies
// them to c; the address goes to *addr when addr is not nil (host
// variables), and otherwise stays a variable. ranges gives the source range
// of each variable for diagnostics.
//
// Recognised: ansible_host, ansible_port, ansible_user,
// ansible_ssh_private_key_file, ansible_become, ansible_become_user,
// ansible_timeout (and their old ansible_ssh_* / ansible_sudo* spellings),
// ansible_host_key_checking, ansible_connection (ssh, smart, paramiko,
// local; any other is an error), ansible_become_method (sudo; any other is
// an error), ansible_password and ansible_become_pass (kept as sensitive
// connection fields, never as variables), and -J / -o ProxyJump= / -o
// ProxyCommand= / -o StrictHostKeyChecking= / -o UserKnownHostsFile= inside
// ansible_ssh_common_args and ansible_ssh_extra_args (which stay
// variables).
func (b *builder) ansibleConn(dir string, vars map[string]cty.Value, ranges map[string]hcl.Range, c *connDef, addr *string) {
	bad := func(key, want string) {
		b.errorf(ranges[key], "Invalid value for "+key, "The %s variable must be %s.", key, want)
	}
	str := func(key string) (string, bool) {
		v := vars[key]
		if v.IsNull() || !v.IsWhollyKnown() {
			return "", false
		}
		s, err := convert.Convert(v, cty.String)
		if err != nil {
			bad(key, "a string")
			return "", false
		}
		return s.AsString(), true
	}
	for _, key := range sortedKeys(vars) {
		field := ansibleField(key)
		if field == "" {
			continue
		}
		if field == "address" && addr == nil {
			continue
		}
		s, ok := str(key)
		delete(vars, key)
		if !ok {
			continue
		}
		switch field {
		case "address":
			*addr = s
		case "user":
			c.c.User, c.set = s, c.set|fUser
		case "become_user":
			c.c.BecomeUser, c.set = s, c.set|fBecomeUser
		case "identity":
			c.c.IdentityFiles, c.set = []string{resolvePath(dir, s)}, c.set|fIdentity
		case "port":
			v, err := cty.ParseNumberVal(strings.TrimSpace(s))
			p, ok := 0, false
			if err == nil {
				p, ok = portOf(v.AsBigFloat())
			}
			if !ok {
				bad(key, "a whole number from 1 to 65535")
				continue
			}
			c.c.Port, c.set = p, c.set|fPort
		case "become":
			bv, ok := looseBool(s)
			if !ok {
				bad(key, "a boolean (true/false, yes/no, 1/0)")
				continue
			}
			c.c.Become, c.set = bv, c.set|fBecome
		case "hostkey":
			bv, ok := looseBool(s)
			if !ok {
				bad(key, "a boolean (true/false, yes/no, 1/0)")
				continue
			}
			c.c.StrictHostKeyChecking, c.set = "no", c.set|fStrict
			if bv {
				c.c.StrictHostKeyChecking = "yes"
			}
		case "timeout":
			d, err := durationOf(cty.StringVal(s))
			if err != nil {
				bad(key, "a number of seconds")
				continue
			}
			c.c.ConnectTimeout, c.set = d, c.set|fTimeout
		case "sshargs":
			vars[key] = cty.StringVal(s)
			b.sshArgs(dir, s, c, ranges[key], key)
		case "connection":
			switch strings.ToLower(strings.TrimPrefix(s, "ansible.builtin.")) {
			case "ssh", "smart", "paramiko", "paramiko_ssh":
				c.c.Local, c.set = false, c.set|fLocal
			case "local":
				c.c.Local, c.set = true, c.set|fLocal
			default:
				b.errorf(ranges[key], "Unsupported connection", "%s=%s is not supported: prova connects over SSH (ssh, smart, paramiko) or runs on the controller (local).", key, s)
			}
		case "become_method":
			if !strings.EqualFold(strings.TrimPrefix(s, "ansible.builtin."), "sudo") {
				b.errorf(ranges[key], "Unsupported become method", "%s=%s is not supported: prova becomes another user with sudo only.", key, s)
			}
		case "password":
			c.c.Password, c.set = s, c.set|fPassword
		case "become_password":
			c.c.BecomePassword, c.set = s, c.set|fBecomePassword
		}
	}
}

func ansibleField(key string) string {
	switch key {
	case "ansible_host", "ansible_ssh_host":
		return "address"
	case "ansible_port", "ansible_ssh_port":
		return "port"
	case "ansible_user", "ansible_ssh_user":
		return "user"
	case "ansible_ssh_private_key_file", "ansible_private_key_file":
		return "identity"
	case "ansible_become", "ansible_sudo":
		return "become"
	case "ansible_become_user", "ansible_sudo_user":
		return "become_user"
	case "ansible_timeout", "ansible_ssh_timeout":
		return "timeout"
	case "ansible_host_key_checking", "ansible_ssh_host_key_checking":
		return "hostkey"
	case "ansible_ssh_common_args", "ansible_ssh_extra_args":
		return "sshargs"
	case "ansible_connection":
		return "connection"
	case "ansible_become_method":
		return "become_method"
	case "ansible_password", "ansible_ssh_pass", "ansible_ssh_password":
		return "password"
	case "ansible_become_pass", "ansible_become_password", "ansible_sudo_pass", "ansible_sudo_password":
		return "become_password"
	}
	return ""
}

// sshArgs picks the options prova understands out of extra ssh
// arguments, split as Ansible splits them (shlex): -J, -o ProxyJump=,
// -o ProxyCommand=, -o StrictHostKeyChecking=, -o UserKnownHostsFile=.
func (b *builder) sshArgs(dir, s string, c *connDef, rng hcl.Range, key string) {
	f, err := shlexSplit(s)
	if err != nil {
		b.errorf(rng, "Invalid value for "+key, "The %s variable cannot be split into arguments: %v.", key, err)
		return
	}
	for i := 0; i < len(f); i++ {
		var opt string
		switch {
		case f[i] == "-J" && i+1 < len(f):
			c.c.ProxyJump, c.set = f[i+1], c.set|fProxyJump
			i++
			continue
		case strings.HasPrefix(f[i], "-J") && len(f[i]) > 2:
			c.c.ProxyJump, c.set = f[i][2:], c.set|fProxyJump
			continue
		case f[i] == "-o" && i+1 < len(f):
			opt = f[i+1]
			i++
		case strings.HasPrefix(f[i], "-o") && len(f[i]) > 2:
			opt = f[i][2:]
		default:
			continue
		}
		k, v, ok := strings.Cut(opt, "=")
		if !ok {
			k, v, ok = strings.Cut(strings.TrimSpace(opt), " ")
			if !ok {
				continue
			}
		}
		v = strings.TrimSpace(v)
		switch strings.ToLower(strings.TrimSpace(k)) {
		case "proxyjump":
			c.c.ProxyJump, c.set = v, c.set|fProxyJump
		case "proxycommand":
			if strings.EqualFold(v, "none") {
				v = ""
			}
			c.c.ProxyCommand, c.set = v, c.set|fProxyCommand
		case "stricthostkeychecking":
			if vv := strings.ToLower(v); validStrict(vv) {
				c.c.StrictHostKeyChecking, c.set = vv, c.set|fStrict
			}
		case "userknownhostsfile":
			c.c.KnownHosts, c.set = resolvePath(dir, v), c.set|fKnownHosts
		}
	}
}

// looseBool reads the booleans Ansible accepts.
func looseBool(s string) (bool, bool) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "true", "yes", "on", "1", "y", "t":
		return true, true
	case "false", "no", "off", "0", "n", "f":
		return false, true
	}
	return false, false
}
