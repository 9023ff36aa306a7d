package inventory

import "fmt"

// shlexWord is one word of a line split as Python's shlex does, with the
// byte offsets of its source in the line.
type shlexWord struct {
	text       string
	start, end int
}

// shlexWords splits s as Python's shlex.split(s, comments, posix=True)
// does, which is how Ansible splits an INI host line (comments=true) and
// ansible_ssh_common_args (comments=false): blanks separate words; single
// quotes keep everything; inside double quotes a backslash escapes only \
// and ", and is kept before anything else; outside quotes a backslash
// escapes the next character; with comments, a # outside quotes ends the
// line, also in the middle of a word ("x#y" is "x"). An empty quoted
// string is a word.
func shlexWords(s string, comments bool) ([]shlexWord, error) {
	var out []shlexWord
	var cur []byte
	inWord, start := false, 0
	begin := func(i int) {
		if !inWord {
			inWord, start = true, i
		}
	}
	emit := func(end int) {
		if inWord {
			out = append(out, shlexWord{text: string(cur), start: start, end: end})
			cur, inWord = cur[:0], false
		}
	}
	for i := 0; i < len(s); i++ {
		ch := s[i]
		switch {
		case ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r':
			emit(i)
		case comments && ch == '#':
			emit(i)
			return out, nil
		case ch == '\\':
			begin(i)
			if i+1 >= len(s) {
				return nil, fmt.Errorf("no escaped character")
			}
			i++
			cur = append(cur, s[i])
		case ch == '\'':
			begin(i)
			j := i + 1
			for j < len(s) && s[j] != '\'' {
				j++
			}
			if j >= len(s) {
				return nil, fmt.Errorf("no closing quotation")
			}
			cur = append(cur, s[i+1:j]...)
			i = j
		case ch == '"':
			begin(i)
			j := i + 1
			for ; j < len(s) && s[j] != '"'; j++ {
				if s[j] == '\\' && j+1 < len(s) && (s[j+1] == '\\' || s[j+1] == '"') {
					j++
				}
				cur = append(cur, s[j])
			}
			if j >= len(s) {
				return nil, fmt.Errorf("no closing quotation")
			}
			i = j
		default:
			begin(i)
			cur = append(cur, ch)
		}
	}
	emit(len(s))
	return out, nil
}

// shlexSplit is shlexWords without comments, as words only.
func shlexSplit(s string) ([]string, error) {
	w, err := shlexWords(s, false)
	if err != nil {
		return nil, err
	}
	out := make([]string, len(w))
	for i, x := range w {
		out[i] = x.text
	}
	return out, nil
}
