package ibvdevinfo

import (
	"strings"
	"testing"
)

// TestEverySample parses every ibv_devinfo/ibv_devices sample with the
// parser for its tool, so that a new sample cannot go unread.
func TestEverySample(t *testing.T) {
	rels := samplesGlob(t, "ibv_devinfo/*")
	if len(rels) == 0 {
		t.Fatal("no samples")
	}
	for _, rel := range rels {
		for i, s := range sections(t, rel) {
			var err error
			switch {
			case strings.Contains(rel, "ibv_devices"),
				strings.Contains(rel, "rxe0-softroce") && i == 0: // ibv_devices, then ibv_devinfo
				_, err = ParseDevices(s)
			case strings.Contains(rel, "-v-port-section"): // cut before its hca_id line
				_, err = Parse(append([]byte("hca_id:\tmlx5_0\n"), s...))
			default:
				_, err = Parse(s)
			}
			if err != nil {
				t.Errorf("%s section %d: %v", rel, i, err)
			}
		}
	}
}
