package nvme

import (
	"errors"
	"strings"
	"testing"

	"github.com/provadev/prova/internal/testkit/samples"
	"github.com/provadev/prova/parse"
)

// section returns the lines of sample rel from the first line containing
// from (exclusive) up to the first later line containing to (exclusive;
// "" = end). It cuts the prompts and prose that collectors and authors put
// around the tool output in the samples.
func section(t *testing.T, rel, from, to string) []byte {
	t.Helper()
	lines := strings.Split(string(samples.Read(t, rel)), "\n")
	start := 0
	if from != "" {
		start = -1
		for i, l := range lines {
			if strings.Contains(l, from) {
				start = i + 1
				break
			}
		}
		if start < 0 {
			t.Fatalf("%s: no line contains %q", rel, from)
		}
	}
	end := len(lines)
	if to != "" {
		for i := start; i < len(lines); i++ {
			if strings.Contains(lines[i], to) {
				end = i
				break
			}
		}
	}
	out := strings.Join(lines[start:end], "\n")
	if out != "" && !strings.HasSuffix(out, "\n") {
		out += "\n" // the tool finished its last line; the sample split dropped it
	}
	return []byte(out)
}

// wantParseError checks that err is a *parse.Error for tool at line (0 =
// any) whose reason contains reason.
func wantParseError(t *testing.T, err error, tool string, line int, reason string) *parse.Error {
	t.Helper()
	var pe *parse.Error
	if !errors.As(err, &pe) {
		t.Fatalf("want *parse.Error, got %T %v", err, err)
	}
	if pe.Tool != tool || (line > 0 && pe.Line != line) || !strings.Contains(pe.Reason, reason) {
		t.Fatalf("got %q (tool %q line %d), want tool %q line %d reason containing %q", pe.Error(), pe.Tool, pe.Line, tool, line, reason)
	}
	return pe
}
