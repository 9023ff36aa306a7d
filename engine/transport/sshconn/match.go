package sshconn

import (
	"errors"
	"fmt"
	"net"
	"os/exec"
	"strconv"
	"strings"
)

// checkMatch validates the criteria of a Match line as OpenSSH does and
// says whether it asks for the final pass (final or canonical).
func checkMatch(args []string) (final bool, err error) {
	if len(args) == 0 {
		return false, errors.New("match needs at least one criterion")
	}
	for i := 0; i < len(args); i++ {
		a := strings.ToLower(strings.TrimPrefix(args[i], "!"))
		switch a {
		case "all":
			// as OpenSSH 9.2: nothing may follow "all"
			if i != len(args)-1 {
				return false, errors.New("'all' cannot be combined with other Match attributes")
			}
		case "canonical", "final":
			final = true
		case "host", "originalhost", "user", "localuser", "exec":
			if i+1 >= len(args) {
				return false, fmt.Errorf("match %s needs an argument", a)
			}
			i++
		case "localnetwork", "tagged", "version", "sessiontype", "command":
			return false, fmt.Errorf("match %s is not supported by prova (nor by OpenSSH 9.2)", a)
		default:
			return false, fmt.Errorf("unsupported Match attribute %s", args[i])
		}
	}
	return final, nil
}

// MatchEnv is what Match criteria are evaluated against besides the
// settings read so far.
type MatchEnv struct {
	LocalUser string
	Home      string
	// Exec runs the command of a Match exec (already %-expanded) and says
	// whether it exited 0. nil runs it with /bin/sh -c, as ssh does.
	Exec func(cmd string) bool
}

// setting is the value a keyword resolved to and the line it came from.
type setting struct {
	args []string
	pos  string
}

// resolution holds the first value of every keyword that applies to a
// host (every value for the accumulating ones) after both passes.
type resolution struct {
	hostArg string // the name asked for (%n)
	host    string // the final host name, lowercased as ssh does (%h)
	set     map[string]setting
	multi   map[string][]setting // identityfile, certificatefile
}

func (r *resolution) get(key string) (setting, bool) {
	s, ok := r.set[key]
	return s, ok
}

func (r *resolution) one(key string) string {
	if s, ok := r.set[key]; ok && len(s.args) > 0 {
		return s.args[0]
	}
	return ""
}

// resolve applies the configuration to hostArg the way ssh does: a first
// pass where Host matches the name given, then, when some Match asks for
// it (final, canonical) or CanonicalizeHostname is on, a final pass where
// Host and Match host see the final, lowercased host name. presetUser and
// presetPort are what the caller fixed beforehand (as ssh -l and -p do):
// Match user sees them and ssh_config cannot change them.
func (c *Config) resolve(hostArg, presetUser string, presetPort int, env MatchEnv) *resolution {
	r := &resolution{hostArg: hostArg, set: map[string]setting{}, multi: map[string][]setting{}}
	if presetUser != "" {
		r.set["user"] = setting{args: []string{presetUser}, pos: "inventory"}
	}
	if presetPort != 0 {
		r.set["port"] = setting{args: []string{strconv.Itoa(presetPort)}, pos: "inventory"}
	}
	if c != nil {
		c.pass(r, hostArg, false, env)
	}
	host := hostArg
	if hn := r.one("hostname"); hn != "" {
		host = expandH(hn, hostArg)
	}
	if net.ParseIP(strings.Trim(host, "[]")) == nil {
		host = strings.ToLower(host)
	}
	r.host = host
	canon := strings.ToLower(r.one("canonicalizehostname"))
	if c != nil && (c.wantFinal || canon == "yes" || canon == "always" || canon == "true") {
		pos := "final pass"
		if s, ok := r.set["hostname"]; ok {
			pos = s.pos
		}
		r.set["hostname"] = setting{args: []string{host}, pos: pos}
		c.pass(r, host, true, env)
	}
	return r
}

func (c *Config) pass(r *resolution, host string, final bool, env MatchEnv) {
	evaluated := map[*block]bool{}
	for _, e := range c.entries {
		ok := true
		for _, b := range e.conds {
			m, seen := evaluated[b]
			if !seen {
				m = r.matchBlock(b, host, final, env)
				evaluated[b] = m
			}
			if !m {
				ok = false
				break
			}
		}
		if !ok {
			continue
		}
		switch e.key {
		case "identityfile", "certificatefile":
			dup := false
			for _, s := range r.multi[e.key] {
				if s.args[0] == e.args[0] {
					dup = true
				}
			}
			if !dup {
				r.multi[e.key] = append(r.multi[e.key], setting{args: e.args[:1], pos: e.pos})
			}
		case "proxyjump", "proxycommand":
			// the first of the two wins, as ssh_config(5) says
			_, j := r.set["proxyjump"]
			_, pc := r.set["proxycommand"]
			if !j && !pc {
				r.set[e.key] = setting{args: e.args, pos: e.pos}
			}
		default:
			if _, ok := r.set[e.key]; !ok {
				r.set[e.key] = setting{args: e.args, pos: e.pos}
			}
		}
	}
}

// matchBlock evaluates a Host or Match line in the current state.
func (r *resolution) matchBlock(b *block, host string, final bool, env MatchEnv) bool {
	if !b.match {
		return matchHostLine(b.args, host)
	}
	// Match host sees the host name as it stands (HostName applied so far).
	cur := host
	if !final {
		if hn := r.one("hostname"); hn != "" {
			cur = expandH(hn, r.hostArg)
		}
	}
	user := r.one("user")
	if user == "" {
		user = env.LocalUser
	}
	result := true
	for i := 0; i < len(b.args); i++ {
		neg := strings.HasPrefix(b.args[i], "!")
		attr := strings.ToLower(strings.TrimPrefix(b.args[i], "!"))
		var m bool
		switch attr {
		case "all":
			m = true
		case "canonical", "final":
			m = final
		default:
			i++
			arg := b.args[i]
			switch attr {
			case "host":
				m = matchPatternList(strings.Split(strings.ToLower(arg), ","), strings.ToLower(cur))
			case "originalhost":
				m = matchPatternList(strings.Split(strings.ToLower(arg), ","), strings.ToLower(r.hostArg))
			case "user":
				m = matchPatternList(strings.Split(arg, ","), user)
			case "localuser":
				m = matchPatternList(strings.Split(arg, ","), env.LocalUser)
			case "exec":
				if !result {
					continue // ssh skips the command once the line cannot match
				}
				port := r.one("port")
				if port == "" {
					port = strconv.Itoa(DefaultPort)
				}
				cmd := strings.NewReplacer("%%", "%", "%h", cur, "%n", r.hostArg, "%p", port,
					"%r", user, "%u", env.LocalUser, "%d", env.Home).Replace(arg)
				m = runExec(env, cmd)
			}
		}
		if m == neg {
			result = false
		}
	}
	return result
}

func runExec(env MatchEnv, cmd string) bool {
	if env.Exec != nil {
		return env.Exec(cmd)
	}
	c := exec.Command("/bin/sh", "-c", cmd)
	return c.Run() == nil
}

// expandH expands %h (and %%) in a HostName value, as ssh does.
func expandH(v, host string) string {
	return strings.NewReplacer("%%", "%", "%h", host).Replace(v)
}

// matchHostLine applies a Host line: some positive pattern matches and no
// negated one does. As in OpenSSH the comparison is case-sensitive.
func matchHostLine(patterns []string, host string) bool {
	found := false
	for _, p := range patterns {
		if neg, ok := strings.CutPrefix(p, "!"); ok {
			if wildcard(neg, host) {
				return false
			}
			continue
		}
		if wildcard(p, host) {
			found = true
		}
	}
	return found
}

// matchPatternList is OpenSSH's match_pattern_list: some pattern matches
// and no negated one does.
func matchPatternList(patterns []string, s string) bool {
	return matchHostLine(patterns, s)
}

// wildcard matches s against a pattern where * is any run and ? any byte.
func wildcard(p, s string) bool {
	star, mark := -1, 0
	i, j := 0, 0
	for j < len(s) {
		switch {
		case i < len(p) && (p[i] == '?' || p[i] == s[j]):
			i++
			j++
		case i < len(p) && p[i] == '*':
			star, mark = i, j
			i++
		case star >= 0:
			i = star + 1
			mark++
			j = mark
		default:
			return false
		}
	}
	for i < len(p) && p[i] == '*' {
		i++
	}
	return i == len(p)
}
