package sshconn

import (
	"fmt"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"
)

// Resolution is how prova will reach one host and where each setting came
// from: "inventory", an ssh_config "file:line", or "default". It is what
// `prova inventory --ssh` prints, in the manner of `ssh -G`.
type Resolution struct {
	Target Target
	// Source maps a setting (hostname, user, port, identityfile,
	// proxyjump, proxycommand, userknownhostsfile, stricthostkeychecking,
	// connecttimeout, serveraliveinterval, serveralivecountmax,
	// identityagent) to where it came from.
	Source map[string]string
	// Warnings are about ssh_config lines that apply to the host and that
	// prova cannot honour; each names the line, so the same text for two
	// hosts is one warning.
	Warnings []string
}

// ResolveTarget merges t with cfg (nil for none) and fills defaults; see
// Resolve.
func ResolveTarget(t Target, cfg *Config, home, localUser string) (Target, []string) {
	r := Resolve(t, cfg, MatchEnv{Home: home, LocalUser: localUser})
	return r.Target, r.Warnings
}

// Resolve merges t with cfg (nil for none) and fills defaults, as ssh
// would for the same host with the inventory's settings given on its
// command line. Fields set in t win over ssh_config (user and port are
// seen by Match user and %r/%p, as ssh -l and -p are). The ssh_config
// alias is t.Address, or t.Name when Address is empty (as Ansible passes
// ansible_host to ssh); HostName from ssh_config then replaces the
// address, which is lowercased as ssh does unless it is an IP address.
// env gives the home directory and local user for ~, %d, %u and defaults.
func Resolve(t Target, cfg *Config, env MatchEnv) Resolution {
	home := env.Home
	out := Resolution{Source: map[string]string{}}
	alias := t.Address
	if alias == "" {
		alias = t.Name
	}
	warnf := func(format string, a ...any) { out.Warnings = append(out.Warnings, fmt.Sprintf(format, a...)) }
	r := cfg.resolve(alias, t.User, t.Port, env)
	src := func(field, key string) {
		if s, ok := r.get(key); ok {
			out.Source[field] = s.pos
		} else {
			out.Source[field] = "default"
		}
	}
	fromInv := func(field string, set bool, key string) {
		if set {
			out.Source[field] = "inventory"
		} else {
			src(field, key)
		}
	}
	seconds := func(key string) time.Duration {
		v := r.one(key)
		if v == "" || strings.EqualFold(v, "none") {
			return 0
		}
		n, _ := convTime(v) // checked when the file was read
		if n == 0 {
			return -1 // explicitly off
		}
		return time.Duration(n) * time.Second
	}

	fromAddress := t.Address != ""
	t.Address = r.host
	fromInv("hostname", fromAddress && r.set["hostname"].pos == "", "hostname")
	src("port", "port")
	if t.Port == 0 {
		t.Port, _ = strconv.Atoi(r.one("port"))
	}
	if t.Port == 0 {
		t.Port = DefaultPort
	}
	src("user", "user")
	if t.User == "" {
		t.User = r.one("user")
	}
	if t.User == "" {
		t.User = env.LocalUser
	}

	tk := tokens{'d': home, 'u': env.LocalUser, 'h': t.Address, 'n': alias, 'r': t.User, 'p': strconv.Itoa(t.Port)}
	// ssh expands ~ and tokens; a path still relative is relative to the
	// working directory, where ssh opens it.
	path := func(f string) string {
		f = expandTilde(tk.expand(f), home)
		if !filepath.IsAbs(f) {
			if a, err := filepath.Abs(f); err == nil {
				f = a
			}
		}
		return f
	}

	fromInv("identityfile", len(t.IdentityFiles) > 0, "")
	if len(t.IdentityFiles) == 0 {
		var pos []string
		for _, s := range r.multi["identityfile"] {
			t.IdentityFiles = append(t.IdentityFiles, s.args[0])
			pos = append(pos, s.pos)
		}
		if len(pos) > 0 {
			out.Source["identityfile"] = strings.Join(pos, ",")
		}
	}
	seen := map[string]bool{}
	files := t.IdentityFiles[:0:0]
	for _, f := range t.IdentityFiles {
		f = path(f)
		if !seen[f] {
			seen[f] = true
			files = append(files, f)
		}
	}
	t.IdentityFiles = files
	if len(t.IdentityFiles) == 0 {
		t.IdentityFiles = nil
	}

	if !t.IdentitiesOnly {
		t.IdentitiesOnly = yes(r.one("identitiesonly"))
	}

	switch {
	case t.ProxyJump != "" || t.ProxyCommand != "":
		// the inventory's proxy wins over ssh_config's, whichever it is
		if t.ProxyJump != "" {
			out.Source["proxyjump"] = "inventory"
		} else {
			out.Source["proxycommand"] = "inventory"
		}
	default:
		src("proxyjump", "proxyjump")
		src("proxycommand", "proxycommand")
		t.ProxyJump = r.one("proxyjump")
		if pc := r.one("proxycommand"); pc != "" && !strings.EqualFold(pc, "none") {
			t.ProxyCommand = pc
		}
	}
	if strings.EqualFold(t.ProxyJump, "none") {
		t.ProxyJump = ""
	}

	fromInv("userknownhostsfile", len(t.KnownHostsFiles) > 0, "userknownhostsfile")
	if len(t.KnownHostsFiles) == 0 {
		if s, ok := r.get("userknownhostsfile"); ok {
			t.KnownHostsFiles = s.args
		}
	}
	switch {
	case len(t.KnownHostsFiles) == 1 && strings.EqualFold(t.KnownHostsFiles[0], "none"):
		t.KnownHostsFiles = nil
	case len(t.KnownHostsFiles) == 0:
		t.KnownHostsFiles = []string{filepath.Join(home, ".ssh", "known_hosts")}
	default:
		kh := make([]string, len(t.KnownHostsFiles))
		for i, f := range t.KnownHostsFiles {
			kh[i] = path(f)
		}
		t.KnownHostsFiles = kh
	}

	fromInv("stricthostkeychecking", t.StrictHostKeyChecking != "", "stricthostkeychecking")
	if t.StrictHostKeyChecking == "" {
		t.StrictHostKeyChecking = r.one("stricthostkeychecking")
	}
	t.StrictHostKeyChecking = normalizeStrict(t.StrictHostKeyChecking)

	fromInv("connecttimeout", t.ConnectTimeout != 0, "connecttimeout")
	if t.ConnectTimeout == 0 {
		t.ConnectTimeout = seconds("connecttimeout")
	}
	if t.ConnectTimeout <= 0 {
		t.ConnectTimeout = DefaultConnectTimeout
	}
	fromInv("serveraliveinterval", t.ServerAliveInterval != 0, "serveraliveinterval")
	if t.ServerAliveInterval == 0 {
		t.ServerAliveInterval = seconds("serveraliveinterval")
	}
	if t.ServerAliveInterval == 0 {
		t.ServerAliveInterval = DefaultServerAliveInterval
	}
	fromInv("serveralivecountmax", t.ServerAliveCountMax != 0, "serveralivecountmax")
	if t.ServerAliveCountMax == 0 {
		t.ServerAliveCountMax, _ = strconv.Atoi(r.one("serveralivecountmax"))
	}
	if t.ServerAliveCountMax <= 0 {
		t.ServerAliveCountMax = DefaultServerAliveCountMax
	}

	src("identityagent", "identityagent")
	if s, ok := r.get("identityagent"); ok {
		switch v := s.args[0]; {
		case strings.EqualFold(v, "none"):
			t.NoAgent = true
		case v == "SSH_AUTH_SOCK" || v == "$SSH_AUTH_SOCK":
			// the default: the agent of the environment
		default:
			t.IdentityAgent = path(v)
		}
	}
	for _, s := range r.multi["certificatefile"] {
		if !strings.EqualFold(s.args[0], "none") {
			warnf("ssh_config %s: CertificateFile is not supported (a key's certificate is read from KEY-cert.pub); ignored", s.pos)
		}
	}
	if v := strings.ToLower(r.one("canonicalizehostname")); v == "yes" || v == "always" || v == "true" {
		s, _ := r.get("canonicalizehostname")
		warnf("ssh_config %s: CanonicalizeHostname %s is not supported (no DNS canonicalisation; Host blocks are matched again against the host name as given); ignored", s.pos, v)
	}
	for key, s := range r.set {
		if keywords[key] != kwUnsupported {
			continue
		}
		if key == "proxyusefdpass" && !yes(s.args[0]) {
			continue
		}
		if key == "globalknownhostsfile" {
			continue // prova reads only the user's known_hosts files: documented
		}
		warnf("ssh_config %s: %s is not supported; ignored", s.pos, key)
	}
	sort.Strings(out.Warnings)
	return out.withTarget(t)
}

func (r Resolution) withTarget(t Target) Resolution {
	r.Target = t
	return r
}

func yes(v string) bool { return strings.EqualFold(v, "yes") || strings.EqualFold(v, "true") }

// normalizeStrict maps StrictHostKeyChecking to prova's three policies.
// "ask" is "yes": ssh asks on the terminal and, when there is nobody to
// answer (BatchMode, no terminal), refuses an unknown key; prova never
// asks.
func normalizeStrict(v string) string {
	switch strings.ToLower(v) {
	case "no", "off", "false":
		return StrictNo
	case "accept-new":
		return StrictAcceptNew
	}
	return StrictYes // "", yes, ask: the safe choice
}
