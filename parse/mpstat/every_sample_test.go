package mpstat

import "testing"

// TestEverySample parses every mpstat sample (the usage text must fail), so that a new sample
// cannot go unread.
func TestEverySample(t *testing.T) {
	rels := samplesGlob(t, "mpstat/*")
	if len(rels) == 0 {
		t.Fatal("no samples")
	}
	for _, rel := range rels {
		for _, s := range sections(t, rel) {
			if _, err := Parse(s); (err != nil) != (rel == "mpstat/error-invalid-cpu.txt") {
				t.Errorf("%s: %v", rel, err)
			}
		}
	}
}
