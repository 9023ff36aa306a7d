package samples

import (
	"regexp"
	"strings"
	"testing"
)

// promptLine matches lines that the samples' authors or the collector added
// around the tool output: shell prompts and "[exit status N]".
var promptLine = regexp.MustCompile(`^(\[exit status \d+\]$|\[[^\]]+\][#$] |[\w.-]+@[\w.-]+:\S*[#$] |[#$] ?\w)`)

// Sections returns the tool outputs in the sample rel, split at prompt
// lines, with the prompt lines themselves and "[exit status N]" dropped. A
// sample without prompts is one section. extra, when not nil, marks more
// separator lines particular to a sample set.
func Sections(t testing.TB, rel string, extra *regexp.Regexp) [][]byte {
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
	for _, line := range strings.SplitAfter(string(Read(t, rel)), "\n") {
		bare := strings.TrimRight(line, "\r\n")
		if promptLine.MatchString(bare) || extra != nil && extra.MatchString(bare) {
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
