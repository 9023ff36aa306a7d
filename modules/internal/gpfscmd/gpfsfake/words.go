package gpfsfake

import "strings"

// words splits a command line built with module.Command back into words:
// it understands single quotes and the '"'"' sequence module.Quote emits,
// and drops a leading VAR=value assignment.
func words(cmd string) []string {
	var out []string
	var cur strings.Builder
	in, inWord := byte(0), false
	for i := 0; i < len(cmd); i++ {
		c := cmd[i]
		switch {
		case in != 0:
			if c == in {
				in = 0
			} else {
				cur.WriteByte(c)
			}
		case c == '\'' || c == '"':
			in, inWord = c, true
		case c == ' ':
			if inWord {
				out = append(out, cur.String())
				cur.Reset()
				inWord = false
			}
		default:
			cur.WriteByte(c)
			inWord = true
		}
	}
	if inWord {
		out = append(out, cur.String())
	}
	if len(out) > 0 && strings.HasPrefix(out[0], "PATH=") {
		out = out[1:]
	}
	return out
}
