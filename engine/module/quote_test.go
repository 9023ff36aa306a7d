package module

import (
	"bytes"
	"context"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// shellArgs runs script through /bin/sh and returns its stdout.
func shellArgs(t *testing.T, script string) []byte {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, "/bin/sh", "-c", script).Output()
	if err != nil {
		t.Fatalf("sh -c %q: %v", script, err)
	}
	return out
}

func TestQuoteKeepsSafeWordsReadable(t *testing.T) {
	for in, want := range map[string]string{
		"/etc/hosts": "/etc/hosts",
		"a b":        "'a b'",
		"":           "''",
		"it's":       `'it'"'"'s'`,
		"$HOME":      "'$HOME'",
	} {
		if got := Quote(in); got != want {
			t.Errorf("Quote(%q) = %s, want %s", in, got, want)
		}
	}
}

func TestCommandQuotesEveryWord(t *testing.T) {
	got := shellArgs(t, "printf '%s\\0' "+Command("a b", "", "$(id)", "x;y"))
	want := "a b\x00\x00$(id)\x00x;y\x00"
	if string(got) != want {
		t.Fatalf("argv = %q, want %q", got, want)
	}
}

// FuzzQuote checks that a quoted value reaches a real shell as exactly one
// argument equal to the input, whatever bytes it holds.
func FuzzQuote(f *testing.F) {
	for _, s := range []string{"", "plain", "a b", "'", `"`, "''", `\`, "$(rm -rf /)", "`id`",
		"a\nb", "*", "~", "-n", "%s", "#x", "a'b\"c", "\xff\xfe", "${IFS}", "!1", "é"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if strings.IndexByte(s, 0) >= 0 {
			t.Skip("NUL cannot be part of an argument")
		}
		got := shellArgs(t, "printf '%s\\0' "+Quote(s))
		if want := append([]byte(s), 0); !bytes.Equal(got, want) {
			t.Fatalf("Quote(%q) = %s reached the shell as %q", s, Quote(s), got)
		}
	})
}

// TestCommandOfManyWords: a command of more words than Command keeps on
// its stack is joined the same way.
func TestCommandOfManyWords(t *testing.T) {
	got := Command("a", "b c", "d", "e'f", "g", "")
	if want := `a 'b c' d 'e'"'"'f' g ''`; got != want {
		t.Errorf("Command = %q, want %q", got, want)
	}
}
