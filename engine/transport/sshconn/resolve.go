package sshconn

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// unsupported ssh_config keywords that change where or how a host is
// reached: using them silently would connect somewhere else, so they earn a
// warning.
var unsupported = []string{"proxycommand", "hostkeyalias", "certificatefile", "identityagent", "canonicalizehostname", "localcommand"}

// ResolveTarget merges t with cfg (nil for none) and fills defaults.
// Fields set in t win over ssh_config. The ssh_config alias is t.Address,
// or t.Name when Address is empty (as Ansible passes ansible_host to ssh);
// HostName from ssh_config then replaces the address. home and localUser
// expand ~, %d and %u and give the default user and files. The returned
// warnings name ssh_config lines that were ignored.
func ResolveTarget(t Target, cfg *Config, home, localUser string) (Target, []string) {
	var warns []string
	alias := t.Address
	if alias == "" {
		alias = t.Name
	}
	warnf := func(format string, a ...any) { warns = append(warns, fmt.Sprintf(format, a...)) }
	one := func(key string) string {
		if v := cfg.Get(alias, key); len(v) > 0 {
			return v[0]
		}
		return ""
	}
	seconds := func(key string) time.Duration {
		v := one(key)
		if v == "" {
			return 0
		}
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			warnf("ssh_config %s: %s %q is not a number of seconds; ignored", cfg.keys(alias)[key], key, v)
			return 0
		}
		if n == 0 {
			return -1 // explicitly off
		}
		return time.Duration(n) * time.Second
	}

	t.Address = alias
	if hn := one("hostname"); hn != "" {
		t.Address = strings.ReplaceAll(hn, "%h", alias)
	}
	if t.Port == 0 {
		if p := one("port"); p != "" {
			n, err := strconv.Atoi(p)
			if err != nil || n <= 0 || n > 65535 {
				warnf("ssh_config %s: Port %q is not a port number; ignored", cfg.keys(alias)["port"], p)
			} else {
				t.Port = n
			}
		}
	}
	if t.Port == 0 {
		t.Port = DefaultPort
	}
	if t.User == "" {
		t.User = one("user")
	}
	if t.User == "" {
		t.User = localUser
	}
	if len(t.IdentityFiles) == 0 {
		for _, v := range cfg.GetAll(alias, "identityfile") {
			t.IdentityFiles = append(t.IdentityFiles, v...)
		}
	}
	if !t.IdentitiesOnly {
		t.IdentitiesOnly = yes(one("identitiesonly"))
	}
	if t.ProxyJump == "" {
		t.ProxyJump = one("proxyjump")
	}
	if strings.EqualFold(t.ProxyJump, "none") {
		t.ProxyJump = ""
	}
	if len(t.KnownHostsFiles) == 0 {
		t.KnownHostsFiles = cfg.Get(alias, "userknownhostsfile")
	}
	if len(t.KnownHostsFiles) == 1 && t.KnownHostsFiles[0] == "none" {
		t.KnownHostsFiles = nil
	}
	if t.StrictHostKeyChecking == "" {
		t.StrictHostKeyChecking = one("stricthostkeychecking")
	}
	t.StrictHostKeyChecking = normalizeStrict(t.StrictHostKeyChecking)
	if t.ConnectTimeout == 0 {
		t.ConnectTimeout = seconds("connecttimeout")
	}
	if t.ConnectTimeout <= 0 {
		t.ConnectTimeout = DefaultConnectTimeout
	}
	if t.ServerAliveInterval == 0 {
		t.ServerAliveInterval = seconds("serveraliveinterval")
	}
	if t.ServerAliveInterval == 0 {
		t.ServerAliveInterval = DefaultServerAliveInterval
	}
	if t.ServerAliveCountMax == 0 {
		if v := one("serveralivecountmax"); v != "" {
			t.ServerAliveCountMax, _ = strconv.Atoi(v)
		}
	}
	if t.ServerAliveCountMax <= 0 {
		t.ServerAliveCountMax = DefaultServerAliveCountMax
	}

	tokens := strings.NewReplacer("%%", "%", "%d", home, "%u", localUser, "%h", t.Address, "%r", t.User, "%p", strconv.Itoa(t.Port))
	expand := func(files []string, def string) []string {
		if len(files) == 0 {
			if def == "" {
				return nil
			}
			return []string{def}
		}
		out := make([]string, len(files))
		for i, f := range files {
			f = expandTilde(tokens.Replace(f), home)
			if !filepath.IsAbs(f) {
				f = filepath.Join(home, f)
			}
			out[i] = f
		}
		return out
	}
	t.IdentityFiles = expand(t.IdentityFiles, "")
	t.KnownHostsFiles = expand(t.KnownHostsFiles, filepath.Join(home, ".ssh", "known_hosts"))

	keys := cfg.keys(alias)
	for _, k := range unsupported {
		if pos, ok := keys[k]; ok {
			warnf("ssh_config %s: %s is not supported; ignored", pos, k)
		}
	}
	return t, warns
}

func yes(v string) bool { return strings.EqualFold(v, "yes") || strings.EqualFold(v, "true") }

func normalizeStrict(v string) string {
	switch strings.ToLower(v) {
	case "no", "off", "false":
		return StrictNo
	case "accept-new":
		return StrictAcceptNew
	}
	return StrictYes // "", yes, ask, anything else: the safe choice
}
