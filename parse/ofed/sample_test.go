package ofed

import (
	"regexp"
	"testing"

	"github.com/provadev/prova/internal/testkit/samples"
)

// separators in the ofed_info sample: "== id N ==" and a bare "ofed_info -s".
var separator = regexp.MustCompile(`^(== id .* ==$|ofed_info )`)

func sections(t testing.TB, rel string) [][]byte { return samples.Sections(t, rel, separator) }

func samplesGlob(t testing.TB, pattern string) []string { return samples.Glob(t, pattern) }
