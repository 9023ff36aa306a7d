package lab

import (
	"strings"
)

// plainCall is a command line that is nothing but one call of a program:
// comment lines, "export NAME=WORD" lines, then one simple command with
// optional NAME=WORD prefixes. Such a line means the same to /bin/sh as to
// the lab server, so the server can run a simulated tool named by it in
// process (see inproc.go).
type plainCall struct {
	env  []string // NAME=value, in the order sh applies them
	name string   // the program, as written (never a path)
	args []string
}

// parsePlain recognises a plain call. getenv resolves $NAME and ${NAME}
// in the value of an assignment (PATH=$PATH:/usr/lpp/mmfs/bin), the only
// place a parameter expansion is accepted. Anything else a shell would
// interpret (pipes, lists, redirections, globs, quoting it could read
// differently, expansions in words, tilde, a program named by a path)
// reports false: the caller hands the line to /bin/sh.
func parsePlain(command string, getenv func(string) string) (plainCall, bool) {
	var pc plainCall
	lookup := func(name string) string {
		for i := len(pc.env) - 1; i >= 0; i-- {
			if k, v, _ := strings.Cut(pc.env[i], "="); k == name {
				return v
			}
		}
		return getenv(name)
	}
	lines := strings.Split(command, "\n")
	done := false
	for _, line := range lines {
		t := strings.TrimLeft(line, " \t")
		if t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		if done {
			return plainCall{}, false // a second command
		}
		if rest, ok := strings.CutPrefix(t, "export"); ok && (rest == "" || rest[0] == ' ' || rest[0] == '\t') {
			words, ok := splitWords(rest, lookup)
			if !ok || len(words) != 1 || !words[0].assign {
				return plainCall{}, false
			}
			pc.env = append(pc.env, words[0].text)
			continue
		}
		words, ok := splitWords(t, lookup)
		if !ok || len(words) == 0 {
			return plainCall{}, false
		}
		i := 0
		for i < len(words) && words[i].assign {
			pc.env = append(pc.env, words[i].text)
			i++
		}
		if i == len(words) {
			return plainCall{}, false // assignments alone change the shell
		}
		name := words[i]
		if name.quoted || name.text == "" || strings.Contains(name.text, "/") || isShellWord(name.text) {
			return plainCall{}, false
		}
		pc.name = name.text
		for _, w := range words[i+1:] {
			pc.args = append(pc.args, w.text)
		}
		done = true
	}
	return pc, done
}

// isShellWord reports the reserved words and builtins that must stay the
// shell's even in a plain line.
func isShellWord(w string) bool {
	switch w {
	case "if", "then", "else", "elif", "fi", "case", "esac", "for", "while", "until", "do", "done",
		"in", "function", "select", "time", "exec", "eval", "source", ".", "cd", "set", "unset",
		"export", "readonly", "local", "alias", "trap", "exit", "return", "shift", "ulimit", "umask":
		return true
	}
	return false
}

type word struct {
	text   string
	quoted bool // some part was quoted
	assign bool // NAME=value before the program
}

// splitWords splits one line into words. It accepts unquoted characters
// that sh takes literally, '...' and "..." without $, ` or \ inside; an
// unquoted $NAME or ${NAME} only in the value of a leading assignment.
func splitWords(line string, outer func(string) string) ([]word, bool) {
	var out []word
	lookup := func(name string) string { // earlier assignments on the line first
		for i := len(out) - 1; i >= 0; i-- {
			if k, v, _ := strings.Cut(out[i].text, "="); out[i].assign && k == name {
				return v
			}
		}
		return outer(name)
	}
	i := 0
	program := false // the program word has been seen: no more assignments
	for i < len(line) {
		for i < len(line) && (line[i] == ' ' || line[i] == '\t') {
			i++
		}
		if i == len(line) {
			break
		}
		var b strings.Builder
		w := word{}
		start := i
		eq := -1 // index in b of an unquoted '=' after a valid name
		for i < len(line) && line[i] != ' ' && line[i] != '\t' {
			c := line[i]
			switch {
			case c == '\'':
				j := strings.IndexByte(line[i+1:], '\'')
				if j < 0 {
					return nil, false
				}
				b.WriteString(line[i+1 : i+1+j])
				w.quoted = true
				i += j + 2
			case c == '"':
				j := strings.IndexByte(line[i+1:], '"')
				if j < 0 {
					return nil, false
				}
				s := line[i+1 : i+1+j]
				if strings.ContainsAny(s, "$`\\!") {
					return nil, false
				}
				b.WriteString(s)
				w.quoted = true
				i += j + 2
			case c == '$':
				if eq < 0 || program {
					return nil, false
				}
				name, n := paramName(line[i:])
				if n == 0 {
					return nil, false
				}
				b.WriteString(lookup(name))
				i += n
			case c == '=' && eq < 0 && !w.quoted && !program && isName(line[start:i]):
				eq = b.Len()
				b.WriteByte(c)
				i++
			case literal(c, i == start):
				b.WriteByte(c)
				i++
			default:
				return nil, false
			}
		}
		w.text = b.String()
		w.assign = eq >= 0
		if !w.assign {
			program = true
		}
		out = append(out, w)
	}
	return out, true
}

// paramName reads $NAME or ${NAME} at the start of s and returns the name
// and the length read; 0 when it is any other expansion.
func paramName(s string) (string, int) {
	if strings.HasPrefix(s, "${") {
		j := strings.IndexByte(s, '}')
		if j < 0 || !isName(s[2:j]) {
			return "", 0
		}
		return s[2:j], j + 1
	}
	j := 1
	for j < len(s) && (s[j] == '_' || s[j] >= 'A' && s[j] <= 'Z' || s[j] >= 'a' && s[j] <= 'z' || j > 1 && s[j] >= '0' && s[j] <= '9') {
		j++
	}
	if j == 1 {
		return "", 0
	}
	return s[1:j], j
}

func isName(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c == '_' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// literal reports whether sh takes c literally outside quotes; '#' at a
// word's start begins a comment; '~' is never taken (tilde expansion).
func literal(c byte, first bool) bool {
	switch {
	case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9':
		return true
	case strings.IndexByte("-_./:,+@%=", c) >= 0:
		return true
	case c == '#':
		return !first
	}
	return false
}
