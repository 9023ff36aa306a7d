package ofed

import "testing"

// TestEverySample parses every ofed_info sample, so that a new sample
// cannot go unread.
func TestEverySample(t *testing.T) {
	rels := samplesGlob(t, "ofed_info/*")
	if len(rels) == 0 {
		t.Fatal("no samples")
	}
	for _, rel := range rels {
		for _, s := range sections(t, rel) {
			if _, err := Parse(s); err != nil {
				t.Errorf("%s: %v", rel, err)
			}
		}
	}
}
