package inventory

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestExpandRange(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"gpfs01", []string{"gpfs01"}},
		{"gpfs[01:03]", []string{"gpfs01", "gpfs02", "gpfs03"}},
		{"n[8:11]", []string{"n8", "n9", "n10", "n11"}},
		{"n[098:100]", []string{"n098", "n099", "n100"}},
		{"n[a:c]", []string{"na", "nb", "nc"}},
		{"n[y:B]", []string{"ny", "nz", "nA", "nB"}},
		{"n[1:3]x[a:b]", []string{"n1xa", "n1xb", "n2xa", "n2xb", "n3xa", "n3xb"}},
		{"[1:2].example.com", []string{"1.example.com", "2.example.com"}},
		{"n[0:10:5]", []string{"n0", "n5", "n10"}},
		{"n[:2]", []string{"n0", "n1", "n2"}},
		{"10.0.0.[11:12]", []string{"10.0.0.11", "10.0.0.12"}},
		{"n[5:5]", []string{"n5"}},
	}
	for _, tt := range tests {
		got, err := ExpandRange(tt.in)
		if err != nil {
			t.Errorf("ExpandRange(%q): %v", tt.in, err)
			continue
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("ExpandRange(%q) (-want +got):\n%s", tt.in, diff)
		}
	}
}

func TestExpandRangeErrors(t *testing.T) {
	tests := []struct{ in, wantErr string }{
		{"n[3:1]", "after end"},
		{"n[c:a]", "after end"},
		{"n[01:3]", "same width"},
		{"n[1:3", "missing \"]\""},
		{"n1:3]", "unexpected \"]\""},
		{"n]x[", "unexpected \"]\""},
		{"n[1]", "[start:end]"},
		{"n[1:]", "no end"},
		{"n[a:3]", "both be numbers or both single letters"},
		{"n[ab:cd]", "both be numbers or both single letters"},
		{"n[1:3:0]", "positive integer"},
		{"n[[1:2]]", "nested"},
		{"n[0:99999999]", "more than"},
		{"a[0:999]b[0:999]", "more than"},
		{"n[1:9999999999]", "too long"},
	}
	for _, tt := range tests {
		_, err := ExpandRange(tt.in)
		if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
			t.Errorf("ExpandRange(%q) error = %v, want one containing %q", tt.in, err, tt.wantErr)
		}
		if err != nil && !strings.Contains(err.Error(), tt.in) {
			t.Errorf("ExpandRange(%q) error %q does not name the input", tt.in, err)
		}
	}
}
