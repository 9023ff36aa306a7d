package perftest

import (
	"strings"
	"testing"
)

// TestEverySample parses every perftest sample with the parser for its
// kind, so that a new sample cannot go unread.
func TestEverySample(t *testing.T) {
	rels := samplesGlob(t, "perftest/*")
	if len(rels) == 0 {
		t.Fatal("no samples")
	}
	for _, rel := range rels {
		fn := ParseBandwidth
		if strings.Contains(rel, "_lat") {
			fn = ParseLatency
		}
		for _, s := range sections(t, rel) {
			r, err := fn(s)
			if err != nil {
				t.Errorf("%s: %v", rel, err)
				continue
			}
			if !r.HasResults() && !r.NoDevice && r.Version == "" && r.Side != "server" {
				t.Errorf("%s: no results, no device error, not a server", rel)
			}
		}
	}
}
