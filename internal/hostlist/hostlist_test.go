package hostlist

import (
	"fmt"
	"strings"
	"testing"
)

func TestFoldHosts(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"", ""},
		{"gpfs04", "gpfs04"},
		{"gpfs01,gpfs02,gpfs03,gpfs05", "gpfs[01-03,05]"},
		{"gpfs05,gpfs01,gpfs03,gpfs02", "gpfs[01-03,05]"},
		{"gpfs09,gpfs10,gpfs11", "gpfs[09-11]"},
		{"gpfs98,gpfs99,gpfs100,gpfs101", "gpfs[98-101]"},
		{"n1,n2,n10,gpfs01,login", "n[1-2,10],gpfs01,login"},
		{"gpfs2,gpfs02", "gpfs[2,02]"},
		{"gpfs02,gpfs2", "gpfs[02,2]"},
		{"a,b,a", "a,b"},
		{"gpfs01,gpfs01,gpfs02", "gpfs[01-02]"},
		{"rack1-node01,rack1-node02,rack2-node01", "rack1-node[01-02],rack2-node01"},
		{"x99999999999999999999", "x99999999999999999999"},
		{"007,008", "[007-008]"},
	} {
		var in []string
		if tc.in != "" {
			in = strings.Split(tc.in, ",")
		}
		if got := Fold(in); got != tc.want {
			t.Errorf("Fold(%s) = %s, want %s", tc.in, got, tc.want)
		}
	}
}

func TestFoldHosts1000(t *testing.T) {
	var names []string
	for i := 1; i <= 1000; i++ {
		if i != 4 {
			names = append(names, fmt.Sprintf("gpfs%02d", i))
		}
	}
	if got, want := Fold(names), "gpfs[01-03,05-1000]"; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}

func FuzzFoldHosts(f *testing.F) {
	f.Add("gpfs01,gpfs02,n1,x")
	f.Fuzz(func(t *testing.T, s string) {
		names := strings.Split(s, ",")
		out := Fold(names)
		if s != "" && out == "" {
			t.Fatalf("Fold(%q) is empty", s)
		}
	})
}
