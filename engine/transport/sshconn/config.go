package sshconn

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Config is a parsed ssh_config file with its Includes expanded.
//
// Supported: Host blocks (patterns with * and ?, negation with !, several
// per line), Include (globs, relative to ~/.ssh, also inside Host blocks,
// nested up to 16 deep), "Keyword value" and "Keyword=value" forms, double
// quotes. Match blocks are skipped with a warning, never a load failure.
// First value wins for every keyword except IdentityFile, which
// accumulates, as in OpenSSH.
type Config struct {
	entries  []configEntry
	Warnings []string // about the file itself (Match blocks skipped)
}

type configEntry struct {
	conds [][]string // every pattern list must match (enclosing Host blocks)
	key   string     // lower case
	args  []string
	pos   string // file:line
}

const maxIncludeDepth = 16

// LoadConfig reads the ssh_config at path. home resolves ~ and relative
// Include paths (which are relative to home/.ssh).
func LoadConfig(path, home string) (*Config, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("ssh_config: %w", err)
	}
	return ParseConfig(data, path, home)
}

// ParseConfig parses ssh_config text; file names it in errors and
// warnings.
func ParseConfig(data []byte, file, home string) (*Config, error) {
	c := &Config{}
	if err := c.parse(data, file, home, nil, 0); err != nil {
		return nil, err
	}
	return c, nil
}

// ConfigError is a line of ssh_config that could not be read.
type ConfigError struct {
	Pos string // file:line
	Msg string
}

func (e *ConfigError) Error() string { return "ssh_config " + e.Pos + ": " + e.Msg }

func (c *Config) parse(data []byte, file, home string, outer [][]string, depth int) error {
	conds := outer
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 64*1024), 1024*1024)
	n := 0
	for sc.Scan() {
		n++
		pos := fmt.Sprintf("%s:%d", file, n)
		key, args, err := splitConfigLine(sc.Text())
		if err != nil {
			return &ConfigError{pos, err.Error()}
		}
		if key == "" {
			continue
		}
		switch key {
		case "host":
			if len(args) == 0 {
				return &ConfigError{pos, "Host needs at least one pattern"}
			}
			conds = append(outer[:len(outer):len(outer)], args)
		case "match":
			c.Warnings = append(c.Warnings, fmt.Sprintf("ssh_config %s: Match blocks are not supported; the block is ignored", pos))
			conds = append(outer[:len(outer):len(outer)], nil) // a nil pattern list never matches
		case "include":
			if depth >= maxIncludeDepth {
				return &ConfigError{pos, "Include nested too deeply (loop?)"}
			}
			for _, a := range args {
				if err := c.include(a, home, conds, depth, pos); err != nil {
					return err
				}
			}
		default:
			if len(args) == 0 {
				return &ConfigError{pos, fmt.Sprintf("%s needs a value", key)}
			}
			c.entries = append(c.entries, configEntry{conds: conds, key: key, args: args, pos: pos})
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("ssh_config %s: %w", file, err)
	}
	return nil
}

func (c *Config) include(pattern, home string, conds [][]string, depth int, pos string) error {
	p := expandTilde(pattern, home)
	if !filepath.IsAbs(p) {
		p = filepath.Join(home, ".ssh", p)
	}
	matches, err := filepath.Glob(p)
	if err != nil {
		return &ConfigError{pos, fmt.Sprintf("Include %q: %v", pattern, err)}
	}
	for _, m := range matches {
		data, err := os.ReadFile(m)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				continue
			}
			return &ConfigError{pos, fmt.Sprintf("Include %s: %v", m, err)}
		}
		if err := c.parse(data, m, home, conds, depth+1); err != nil {
			return err
		}
	}
	return nil
}

// splitConfigLine returns the lower-case keyword and its arguments;
// key is "" for blank and comment lines.
func splitConfigLine(line string) (string, []string, error) {
	line = strings.TrimSpace(line)
	if line == "" || line[0] == '#' {
		return "", nil, nil
	}
	end := strings.IndexAny(line, " \t=")
	if end < 0 {
		return strings.ToLower(line), nil, nil
	}
	key := strings.ToLower(line[:end])
	rest := strings.TrimLeft(line[end:], " \t")
	if strings.HasPrefix(rest, "=") {
		rest = strings.TrimLeft(rest[1:], " \t")
	}
	var args []string
	for rest != "" {
		if rest[0] == '#' {
			break
		}
		var arg string
		if rest[0] == '"' {
			i := strings.IndexByte(rest[1:], '"')
			if i < 0 {
				return "", nil, fmt.Errorf("unterminated quote in %q", line)
			}
			arg, rest = rest[1:1+i], rest[2+i:]
		} else {
			i := strings.IndexAny(rest, " \t")
			if i < 0 {
				i = len(rest)
			}
			arg, rest = rest[:i], rest[i:]
		}
		args = append(args, arg)
		rest = strings.TrimLeft(rest, " \t")
	}
	return key, args, nil
}

// Get returns the arguments of the first line for key (lower case) that
// applies to alias, or nil.
func (c *Config) Get(alias, key string) []string {
	if c == nil {
		return nil
	}
	for _, e := range c.entries {
		if e.key == key && e.matches(alias) {
			return e.args
		}
	}
	return nil
}

// GetAll returns the arguments of every line for key that applies to
// alias, in file order.
func (c *Config) GetAll(alias, key string) [][]string {
	if c == nil {
		return nil
	}
	var out [][]string
	for _, e := range c.entries {
		if e.key == key && e.matches(alias) {
			out = append(out, e.args)
		}
	}
	return out
}

// Keys returns every keyword that applies to alias with its position, for
// warnings about unsupported ones.
func (c *Config) keys(alias string) map[string]string {
	out := map[string]string{}
	if c == nil {
		return out
	}
	for _, e := range c.entries {
		if _, seen := out[e.key]; !seen && e.matches(alias) {
			out[e.key] = e.pos
		}
	}
	return out
}

func (e configEntry) matches(alias string) bool {
	for _, pats := range e.conds {
		if !matchHost(pats, alias) {
			return false
		}
	}
	return true
}

// matchHost applies one Host line: some positive pattern matches and no
// negated one does.
func matchHost(patterns []string, host string) bool {
	found := false
	for _, p := range patterns {
		if neg, ok := strings.CutPrefix(p, "!"); ok {
			if wildcard(strings.ToLower(neg), strings.ToLower(host)) {
				return false
			}
			continue
		}
		if wildcard(strings.ToLower(p), strings.ToLower(host)) {
			found = true
		}
	}
	return found
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

func expandTilde(p, home string) string {
	if p == "~" {
		return home
	}
	if rest, ok := strings.CutPrefix(p, "~/"); ok {
		return filepath.Join(home, rest)
	}
	return p
}
