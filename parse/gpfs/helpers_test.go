package gpfs

import (
	"errors"
	"regexp"
	"strings"
	"testing"

	"github.com/provadev/prova/internal/testkit/samples"
	"github.com/provadev/prova/parse"
)

// segment is the output of one command inside a sample that a human pasted
// together with its prompts.
type segment struct {
	cmd string
	out []byte
}

// cmdLine matches a pasted command line: an optional shell prompt, then a
// GPFS command (or tail) followed by a space or the end of the line.
var cmdLine = regexp.MustCompile(`^(?:\[\S+@[^\]]+\][#$] ?|# )?(?:\./)?((?:mm[a-z]+|tail)(?: .*)?)$`)

// annotations are lines the sample notes call out as not tool output.
var annotations = map[string]bool{"#output": true, "^C": true, "You have new mail in /var/spool/mail/root": true}

// segments splits a sample at pasted command lines. Text before the first
// command line has cmd "". The leading indentation common to the sample is
// removed first (one guide indents all its output by four spaces).
func segments(t *testing.T, rel string) []segment {
	t.Helper()
	lines := strings.Split(string(samples.Read(t, rel)), "\n")
	indent := -1
	for _, l := range lines {
		if strings.TrimSpace(l) == "" {
			continue
		}
		n := len(l) - len(strings.TrimLeft(l, " "))
		if indent < 0 || n < indent {
			indent = n
		}
	}
	var out []segment
	cur := &segment{}
	flush := func() {
		if cur.cmd != "" || strings.TrimSpace(string(cur.out)) != "" {
			out = append(out, *cur)
		}
	}
	for _, l := range lines {
		if len(l) >= indent && strings.TrimSpace(l[:indent]) == "" {
			l = l[indent:]
		}
		if annotations[strings.TrimSpace(l)] {
			continue
		}
		if m := cmdLine.FindStringSubmatch(strings.TrimRight(l, " ")); m != nil {
			flush()
			cur = &segment{cmd: m[1]}
			continue
		}
		cur.out = append(cur.out, l+"\n"...)
	}
	flush()
	return out
}

// only returns the output of the single command in a sample.
func only(t *testing.T, rel string) []byte {
	t.Helper()
	s := segments(t, rel)
	if len(s) != 1 {
		t.Fatalf("%s: %d command outputs, want 1", rel, len(s))
	}
	return s[0].out
}

// segmentOf returns the output of the n-th (0-based) command whose command
// line starts with prefix.
func segmentOf(t *testing.T, rel, prefix string, n int) []byte {
	t.Helper()
	for _, s := range segments(t, rel) {
		if strings.HasPrefix(s.cmd, prefix) {
			if n == 0 {
				return s.out
			}
			n--
		}
	}
	t.Fatalf("%s: no output of %q", rel, prefix)
	return nil
}

// wantParseError checks that err is a *parse.Error for tool at line.
func wantParseError(t *testing.T, err error, tool string, line int) *parse.Error {
	t.Helper()
	var pe *parse.Error
	if !errors.As(err, &pe) {
		t.Fatalf("error = %v (%T), want *parse.Error", err, err)
	}
	if pe.Tool != tool || pe.Line != line {
		t.Fatalf("error names %q line %d, want %q line %d (%v)", pe.Tool, pe.Line, tool, line, err)
	}
	return pe
}

func intp(p *int) int {
	if p == nil {
		return -1
	}
	return *p
}
