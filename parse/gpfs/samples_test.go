package gpfs

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/provadev/prova/internal/testkit/samples"
)

// TestEverySampleExercised fails when a gpfs sample is added without a test
// that reads it: each sample's name must appear in a _test.go file here.
func TestEverySampleExercised(t *testing.T) {
	var src strings.Builder
	files, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if strings.HasSuffix(f.Name(), "_test.go") && f.Name() != "samples_test.go" {
			b, err := os.ReadFile(f.Name())
			if err != nil {
				t.Fatal(err)
			}
			src.Write(b)
		}
	}
	all := samples.Glob(t, "gpfs/*.txt")
	if len(all) == 0 {
		t.Fatal("no gpfs samples")
	}
	for _, rel := range all {
		if !regexp.MustCompile(`"` + regexp.QuoteMeta(rel) + `"`).MatchString(src.String()) {
			t.Errorf("sample %s is not used by any test", rel)
		}
	}
}
