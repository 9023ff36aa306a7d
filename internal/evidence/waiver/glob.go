package waiver

import (
	"fmt"
	"regexp"
	"strings"
)

// compileGlob turns a glob into an anchored regexp. "*" matches any run of
// characters (slashes too: check names such as "latency: RDMA/TCP ratio"
// hold them), "?" one character, "[abc]", "[a-z]" and "[!a-z]" one
// character of a class; "\" quotes the next character.
func compileGlob(glob string) (*regexp.Regexp, error) {
	var b strings.Builder
	b.WriteString(`^`)
	for i := 0; i < len(glob); i++ {
		switch c := glob[i]; c {
		case '*':
			b.WriteString(`.*`)
		case '?':
			b.WriteString(`.`)
		case '\\':
			if i+1 == len(glob) {
				return nil, fmt.Errorf("trailing backslash")
			}
			i++
			b.WriteString(regexp.QuoteMeta(glob[i : i+1]))
		case '[':
			end := strings.IndexByte(glob[i+1:], ']')
			if end < 0 {
				return nil, fmt.Errorf("unclosed [")
			}
			class := glob[i+1 : i+1+end]
			if class == "" || class == "!" {
				return nil, fmt.Errorf("empty character class")
			}
			if class[0] == '!' {
				class = "^" + class[1:]
			}
			b.WriteString("[" + strings.ReplaceAll(class, `\`, `\\`) + "]")
			i += end + 1
		default:
			b.WriteString(regexp.QuoteMeta(string(c)))
		}
	}
	b.WriteString(`$`)
	return regexp.Compile(b.String())
}

// globMatch reports whether s matches glob; a bad glob matches nothing.
func globMatch(glob string, re *regexp.Regexp, s string) bool {
	if re == nil {
		var err error
		if re, err = compileGlob(glob); err != nil {
			return false
		}
	}
	return re.MatchString(s)
}
