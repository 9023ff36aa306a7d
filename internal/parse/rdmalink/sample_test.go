package rdmalink

import (
	"regexp"
	"strings"
	"testing"

	"github.com/provadev/prova/internal/samples"
)

// promptLine matches lines that the samples' authors or the collector added
// around the tool output: shell prompts and "[exit status N]".
var promptLine = regexp.MustCompile(`^(\[exit status \d+\]$|\[[^\]]+\][#$] |[\w.-]+@[\w.-]+:\S*[#$] |[#$] ?\w)`)

// sections returns the tool outputs in a sample, split at prompt lines, with
// the prompt lines themselves dropped. A sample without prompts is one
// section.
func sections(t testing.TB, rel string) [][]byte {
	t.Helper()
	var out [][]byte
	var cur []string
	started := false
	flush := func() {
		if started {
			out = append(out, []byte(strings.Join(cur, "")))
		}
		cur, started = nil, false
	}
	for _, line := range strings.SplitAfter(string(samples.Read(t, rel)), "\n") {
		if promptLine.MatchString(strings.TrimRight(line, "\r\n")) {
			if strings.HasPrefix(line, "[exit status") {
				continue
			}
			flush()
			started = true
			continue
		}
		if line != "" {
			cur = append(cur, line)
			started = true
		}
	}
	flush()
	if len(out) == 0 {
		out = append(out, nil)
	}
	return out
}

func samplesGlob(t testing.TB, pattern string) []string { return samples.Glob(t, pattern) }
