package module

import "strings"

// Quote returns s as one POSIX shell word: it is safe to place in a command
// run by sh, bash or any POSIX shell, whatever bytes s holds. Words made only
// of safe characters are returned as they are, to keep commands readable.
func Quote(s string) string {
	if s == "" {
		return "''"
	}
	safe := true
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' ||
			strings.IndexByte("@%_+=:,./-", c) >= 0) {
			safe = false
			break
		}
	}
	if safe {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'"'"'`) + "'"
}

// Command joins a program and its arguments into one shell command line,
// quoting every word.
func Command(argv ...string) string {
	// The quoted words of a short command stay on the stack: strings.Join
	// keeps none of them (most commands are "sh -c <script>" or
	// "test -e <path>").
	var words [4]string
	q := words[:0]
	for _, a := range argv {
		q = append(q, Quote(a))
	}
	return strings.Join(q, " ")
}
