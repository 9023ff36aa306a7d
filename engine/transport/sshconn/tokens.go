package sshconn

import "strings"

// tokens are the values of ssh_config's %-tokens, by the letter after the
// %: expand replaces each "%x" whose x has a value, and "%%" with "%",
// left to right, and keeps any other % as it is. It is what
// strings.NewReplacer("%%", "%", "%h", host, ...) does, without building a
// replacer: Resolve expanded every path of every target through one, and
// building its lookup tables was about 0.5 % of a 50-host fan-out's CPU
// for paths that mostly hold no % at all.
type tokens map[byte]string

func (tk tokens) expand(s string) string {
	i := strings.IndexByte(s, '%')
	if i < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for {
		b.WriteString(s[:i])
		s = s[i:] // at a %
		if len(s) >= 2 {
			if s[1] == '%' {
				b.WriteByte('%')
				s = s[2:]
			} else if v, ok := tk[s[1]]; ok {
				b.WriteString(v)
				s = s[2:]
			} else {
				b.WriteByte('%')
				s = s[1:]
			}
		} else {
			b.WriteString(s)
			return b.String()
		}
		if i = strings.IndexByte(s, '%'); i < 0 {
			b.WriteString(s)
			return b.String()
		}
	}
}
