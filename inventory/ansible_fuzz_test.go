package inventory

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// FuzzAnsibleValue: any INI value reads without a panic into a value
// that --json can print, and reads the same twice.
func FuzzAnsibleValue(f *testing.F) {
	for _, s := range []string{"3.0", "-0x1F", "1_000.5", "['/dev/sda', '/dev/sdb']", `{'a': (1,), 1: None, True: 2}`,
		`'\x41\u00e9\101' "b"`, `r'\''`, `'''a'b'''`, "1, 2,", "5 # c", "[[[[[[1]]]]]]", "1e99999", "007", "b'\\xff'"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v := ansibleValue(s)
		b, err := json.Marshal(plainValue(v))
		if err != nil {
			t.Fatalf("ansibleValue(%q) cannot be printed: %v", s, err)
		}
		b2, _ := json.Marshal(plainValue(ansibleValue(s)))
		if string(b) != string(b2) {
			t.Fatalf("ansibleValue(%q) differs between runs: %s, %s", s, b, b2)
		}
	})
}

// FuzzShlexWords: word offsets lie in the line and in order, and the
// words, each quoted as a shell would quote it, split back into the same
// words.
func FuzzShlexWords(f *testing.F) {
	for _, s := range []string{`h a="x y" b='c d' # e`, `x#y`, `"a\"b" c\ d`, `'' ""`, `-o ProxyCommand="ssh -W %h:%p b"`} {
		f.Add(s, true)
		f.Add(s, false)
	}
	f.Fuzz(func(t *testing.T, s string, comments bool) {
		words, err := shlexWords(s, comments)
		if err != nil {
			return
		}
		last := 0
		var quoted []string
		var texts []string
		for _, w := range words {
			if w.start < last || w.end < w.start || w.end > len(s) {
				t.Fatalf("shlexWords(%q): word %q at [%d,%d) after %d", s, w.text, w.start, w.end, last)
			}
			last = w.end
			texts = append(texts, w.text)
			quoted = append(quoted, "'"+strings.ReplaceAll(w.text, "'", `'"'"'`)+"'")
		}
		again, err := shlexSplit(strings.Join(quoted, " "))
		if err != nil || !cmp.Equal(again, texts, cmp.Comparer(func(a, b []string) bool {
			return strings.Join(a, "\x00") == strings.Join(b, "\x00") && len(a) == len(b)
		})) {
			t.Fatalf("shlexWords(%q) = %q; quoted and split again: %q, %v", s, texts, again, err)
		}
	})
}
