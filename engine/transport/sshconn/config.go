package sshconn

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Config is a parsed ssh_config file with its Includes expanded.
//
// It reads the file as OpenSSH does: Host blocks (patterns with * and ?,
// negation with !, matched case-sensitively against the name given),
// Match blocks (see match.go), Include (globs, relative to ~/.ssh, also
// inside Host and Match blocks, nested up to 16 deep), "Keyword value" and
// "Keyword=value" forms, quotes anywhere in a word. A keyword OpenSSH does
// not know is an error naming the file and line, as in OpenSSH, unless
// IgnoreUnknown names it or the file was loaded leniently (then it is a
// warning). Values of the keywords prova reads are checked when the file is
// read, as OpenSSH checks them, so `Port notanumber` refuses the file.
// First value wins for every keyword except IdentityFile and
// CertificateFile, which accumulate.
type Config struct {
	entries  []configEntry
	Warnings []string // about the file itself (unknown keywords when lenient, deprecated ones)

	wantFinal bool // some Match has final or canonical: resolve twice, as ssh does
}

// block is one Host or Match line; the entries after it apply when it
// matches.
type block struct {
	match bool     // Match, else Host
	args  []string // Host patterns, or Match criteria
	pos   string
}

type configEntry struct {
	conds []*block // every one must match (the enclosing blocks of outer files first)
	key   string   // lower case
	args  []string
	pos   string // file:line
}

const maxIncludeDepth = 16

// ConfigOptions control how an ssh_config file is read.
type ConfigOptions struct {
	// Home resolves ~ and relative Include paths (relative to Home/.ssh).
	Home string
	// Lenient turns an unknown keyword into a warning instead of an error
	// (--ssh-config-lenient).
	Lenient bool
}

// LoadConfig reads the ssh_config at path. home resolves ~ and relative
// Include paths (which are relative to home/.ssh).
func LoadConfig(path, home string) (*Config, error) {
	return LoadConfigWith(path, ConfigOptions{Home: home})
}

// LoadConfigWith reads the ssh_config at path with options.
func LoadConfigWith(path string, o ConfigOptions) (*Config, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("ssh_config: %w", err)
	}
	return ParseConfigWith(data, path, o)
}

// ParseConfig parses ssh_config text; file names it in errors and
// warnings.
func ParseConfig(data []byte, file, home string) (*Config, error) {
	return ParseConfigWith(data, file, ConfigOptions{Home: home})
}

// ParseConfigWith parses ssh_config text with options.
func ParseConfigWith(data []byte, file string, o ConfigOptions) (*Config, error) {
	c := &Config{}
	p := &configParser{c: c, o: o}
	if err := p.parse(data, file, nil, 0); err != nil {
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

type configParser struct {
	c             *Config
	o             ConfigOptions
	ignoreUnknown []string // IgnoreUnknown patterns seen so far
}

func (p *configParser) parse(data []byte, file string, outer []*block, depth int) error {
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
			conds = append(outer[:len(outer):len(outer)], &block{args: args, pos: pos})
		case "match":
			b := &block{match: true, args: args, pos: pos}
			final, err := checkMatch(args)
			if err != nil {
				return &ConfigError{pos, err.Error()}
			}
			p.c.wantFinal = p.c.wantFinal || final
			conds = append(outer[:len(outer):len(outer)], b)
		case "include":
			if len(args) == 0 {
				return &ConfigError{pos, "Include needs a file"}
			}
			if depth >= maxIncludeDepth {
				return &ConfigError{pos, "Include nested too deeply (loop?)"}
			}
			for _, a := range args {
				if err := p.include(a, conds, depth, pos); err != nil {
					return err
				}
			}
		default:
			kind, known := keywords[key]
			if !known {
				if matchPatternList(p.ignoreUnknown, key) {
					continue
				}
				msg := "Bad configuration option: " + key
				if !p.o.Lenient {
					return &ConfigError{pos, msg + " (OpenSSH refuses this file too; --ssh-config-lenient downgrades this to a warning)"}
				}
				p.c.Warnings = append(p.c.Warnings, fmt.Sprintf("ssh_config %s: %s; ignored", pos, msg))
				continue
			}
			if kind == kwDeprecated {
				p.c.Warnings = append(p.c.Warnings, fmt.Sprintf("ssh_config %s: Unsupported option %q (as OpenSSH says); ignored", pos, key))
				continue
			}
			if len(args) == 0 {
				return &ConfigError{pos, fmt.Sprintf("%s needs a value", key)}
			}
			if err := checkValue(key, args); err != nil {
				return &ConfigError{pos, err.Error()}
			}
			if key == "ignoreunknown" {
				for _, a := range args {
					p.ignoreUnknown = append(p.ignoreUnknown, strings.Split(strings.ToLower(a), ",")...)
				}
			}
			p.c.entries = append(p.c.entries, configEntry{conds: conds, key: key, args: args, pos: pos})
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("ssh_config %s: %w", file, err)
	}
	return nil
}

func (p *configParser) include(pattern string, conds []*block, depth int, pos string) error {
	path := expandTilde(pattern, p.o.Home)
	if !filepath.IsAbs(path) {
		path = filepath.Join(p.o.Home, ".ssh", path)
	}
	matches, err := filepath.Glob(path)
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
		if err := p.parse(data, m, conds, depth+1); err != nil {
			return err
		}
	}
	return nil
}

// checkValue refuses what OpenSSH refuses for the keywords prova reads.
func checkValue(key string, args []string) error {
	v := args[0]
	switch key {
	case "port":
		if n, err := strconv.Atoi(v); err != nil || n <= 0 || n > 65535 {
			return fmt.Errorf("bad port '%s'", v)
		}
	case "connecttimeout", "serveraliveinterval":
		if strings.EqualFold(v, "none") && key == "connecttimeout" {
			return nil
		}
		if _, err := convTime(v); err != nil {
			return fmt.Errorf("invalid time value %q for %s", v, key)
		}
	case "serveralivecountmax":
		if n, err := strconv.Atoi(v); err != nil || n < 0 {
			return fmt.Errorf("bad number %q for %s", v, key)
		}
	case "stricthostkeychecking":
		switch strings.ToLower(v) {
		case "yes", "no", "ask", "accept-new", "off", "true", "false":
		default:
			return fmt.Errorf("unsupported option %q for StrictHostKeyChecking", v)
		}
	case "identitiesonly", "batchmode":
		switch strings.ToLower(v) {
		case "yes", "no", "true", "false":
		default:
			return fmt.Errorf("unsupported option %q for %s", v, key)
		}
	case "canonicalizehostname":
		switch strings.ToLower(v) {
		case "yes", "no", "always", "none", "true", "false":
		default:
			return fmt.Errorf("unsupported option %q for CanonicalizeHostname", v)
		}
	case "proxycommand", "remotecommand", "localcommand", "knownhostscommand":
		// the whole rest of the line is the command; nothing to check
	}
	return nil
}

// convTime reads an OpenSSH time value: seconds, or a sequence of
// number+unit (s, m, h, d, w), e.g. "1h30m".
func convTime(v string) (int, error) {
	if v == "" {
		return 0, errors.New("empty")
	}
	total := 0
	for v != "" {
		i := 0
		for i < len(v) && v[i] >= '0' && v[i] <= '9' {
			i++
		}
		if i == 0 {
			return 0, errors.New("not a number")
		}
		n, err := strconv.Atoi(v[:i])
		if err != nil {
			return 0, err
		}
		v = v[i:]
		mult := 1
		if v != "" {
			switch v[0] {
			case 's', 'S':
			case 'm', 'M':
				mult = 60
			case 'h', 'H':
				mult = 3600
			case 'd', 'D':
				mult = 86400
			case 'w', 'W':
				mult = 604800
			default:
				return 0, errors.New("bad unit")
			}
			v = v[1:]
		}
		total += n * mult
	}
	return total, nil
}

// splitConfigLine returns the lower-case keyword and its arguments, split
// as OpenSSH splits them: words separated by blanks, single or double
// quotes anywhere in a word (foo"bar baz" is one word), a backslash
// escaping a quote, a backslash or a blank, # at the start of a word
// ending the line. key is "" for blank and comment lines.
func splitConfigLine(line string) (string, []string, error) {
	line = strings.TrimRight(strings.TrimSpace(line), "\r")
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
	switch key {
	case "proxycommand", "remotecommand", "localcommand", "knownhostscommand":
		// OpenSSH keeps the rest of the line as it is, quotes and all
		if rest == "" {
			return key, nil, nil
		}
		return key, []string{rest}, nil
	}
	args, err := splitArgs(rest)
	if err != nil {
		return "", nil, fmt.Errorf("%v in %q", err, line)
	}
	return key, args, nil
}

func splitArgs(s string) ([]string, error) {
	var args []string
	i := 0
	for {
		for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r') {
			i++
		}
		if i >= len(s) || s[i] == '#' {
			return args, nil
		}
		var b strings.Builder
		var quote byte
		for ; i < len(s); i++ {
			ch := s[i]
			switch {
			case ch == '\\' && i+1 < len(s) && (s[i+1] == '\'' || s[i+1] == '"' || s[i+1] == '\\' || (quote == 0 && s[i+1] == ' ')):
				i++
				b.WriteByte(s[i])
				continue
			case quote == 0 && (ch == ' ' || ch == '\t' || ch == '\r'):
			case quote == 0 && (ch == '"' || ch == '\''):
				quote = ch
				continue
			case quote != 0 && ch == quote:
				quote = 0
				continue
			default:
				b.WriteByte(ch)
				continue
			}
			break
		}
		if quote != 0 {
			return nil, errors.New("unterminated quote")
		}
		args = append(args, b.String())
	}
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
