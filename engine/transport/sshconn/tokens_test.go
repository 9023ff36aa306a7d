package sshconn

import (
	"strings"
	"testing"
)

// tokens.expand is strings.NewReplacer over "%%" and the tokens' "%x",
// the way Resolve and the ProxyCommand used it.
func replacerOf(tk tokens) *strings.Replacer {
	args := []string{"%%", "%"}
	for k, v := range tk {
		args = append(args, "%"+string(k), v)
	}
	return strings.NewReplacer(args...)
}

var testTokens = tokens{'d': "/home/u", 'u': "u", 'h': "10.0.0.1", 'n': "gpfs01", 'r': "root", 'p': "22"}

func TestTokensExpandAsAReplacer(t *testing.T) {
	r := replacerOf(testTokens)
	for _, in := range []string{
		"", "plain", "~/.ssh/known_hosts", "%d/.ssh/id_%r", "%h:%p", "%%h", "%%%h", "%", "a%", "%x", "%x%h",
		"100%", "%%", "%%%", "%h%", "ssh -W %h:%p %r@jump", "%u%n%d", "%%d%%", "%-%h", "%\u00e9%h",
	} {
		if got, want := testTokens.expand(in), r.Replace(in); got != want {
			t.Errorf("expand(%q) = %q, a Replacer gives %q", in, got, want)
		}
	}
	if got := (tokens{}).expand("%h %% %p"); got != "%h % %p" {
		t.Errorf("no tokens: %q", got)
	}
}

func FuzzTokensExpand(f *testing.F) {
	for _, s := range []string{"%d/.ssh/id_%r", "%%%h", "a%", "%x"} {
		f.Add(s)
	}
	r := replacerOf(testTokens)
	f.Fuzz(func(t *testing.T, in string) {
		if got, want := testTokens.expand(in), r.Replace(in); got != want {
			t.Errorf("expand(%q) = %q, a Replacer gives %q", in, got, want)
		}
	})
}
