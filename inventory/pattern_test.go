package inventory

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

const patternInventory = `
host "gpfs[01:06]" {
  groups = ["gpfs"]
}
host "nsd[1:2]" {
  groups = ["nsd_servers"]
}
host "client1" {
  groups = ["clients"]
}
host "lonely" {}
group "gpfs" {
  children = ["nsd_servers"]
}
group "storage" {
  hosts = ["gpfs01", "gpfs02"]
}
group "maintenance" {}
`

func names(hosts []*Host) []string {
	var out []string
	for _, h := range hosts {
		out = append(out, h.Name)
	}
	return out
}

func TestSelect(t *testing.T) {
	inv := mustParse(t, "p.hcl", patternInventory)
	all := names(inv.Hosts)
	tests := []struct {
		pattern string
		want    []string
	}{
		{"all", all},
		{"*", all},
		{"gpfs", []string{"gpfs01", "gpfs02", "gpfs03", "gpfs04", "gpfs05", "gpfs06", "nsd1", "nsd2"}},
		{"nsd_servers", []string{"nsd1", "nsd2"}},
		{"client1", []string{"client1"}},
		{"ungrouped", []string{"lonely"}},
		{"gpfs0*", []string{"gpfs01", "gpfs02", "gpfs03", "gpfs04", "gpfs05", "gpfs06"}},
		{"gpfs0?", []string{"gpfs01", "gpfs02", "gpfs03", "gpfs04", "gpfs05", "gpfs06"}},
		{"*1", []string{"gpfs01", "nsd1", "client1"}},
		{"stor*", []string{"gpfs01", "gpfs02"}}, // globs match group names too
		{"~gpfs0[12]", []string{"gpfs01", "gpfs02"}},
		{"~nsd", []string{"nsd1", "nsd2"}}, // regex is anchored at the start only
		{"~(client1|lonely)$", []string{"client1", "lonely"}},
		{"gpfs[01:03]", []string{"gpfs01", "gpfs02", "gpfs03"}},
		{"gpfs[05:09]", []string{"gpfs05", "gpfs06"}},
		{"client1:nsd1", []string{"nsd1", "client1"}}, // declaration order, not pattern order
		{"client1,nsd1", []string{"nsd1", "client1"}},
		{"nsd1:nsd1:nsd_servers", []string{"nsd1", "nsd2"}},
		{"gpfs:!nsd_servers", []string{"gpfs01", "gpfs02", "gpfs03", "gpfs04", "gpfs05", "gpfs06"}},
		{"!gpfs", []string{"client1", "lonely"}},
		{"gpfs:&storage", []string{"gpfs01", "gpfs02"}},
		{"&storage", []string{"gpfs01", "gpfs02"}},
		{"!gpfs01:gpfs0[1:3]", []string{"gpfs02", "gpfs03"}}, // exclusions apply after unions
		{"gpfs[01:04]:!gpfs[02:03]", []string{"gpfs01", "gpfs04"}},
		{"all:!maintenance", all}, // an empty group excludes nothing
		{" gpfs01 , , nsd2 ", []string{"gpfs01", "nsd2"}},
		{"~gpfs0[1:2]", []string{"gpfs01", "gpfs02"}}, // ":" inside brackets does not split
	}
	for _, tt := range tests {
		got, err := inv.Select(tt.pattern)
		if err != nil {
			t.Errorf("Select(%q): %v", tt.pattern, err)
			continue
		}
		if diff := cmp.Diff(tt.want, names(got)); diff != "" {
			t.Errorf("Select(%q) (-want +got):\n%s", tt.pattern, diff)
		}
	}
}

func TestSelectErrors(t *testing.T) {
	inv := mustParse(t, "p.hcl", patternInventory)
	tests := []struct{ pattern, want string }{
		{"gpfs7", `host pattern "gpfs7": no host or group of that name; did you mean "gpfs"?`},
		{"nsd_server", `did you mean "nsd_servers"?`},
		{"clinet1", `did you mean "client1"?`},
		{"zzzzzzzz", `host pattern "zzzzzzzz": no host or group of that name`},
		{"gpfs:!gpfs7", `did you mean`}, // a typo in an exclusion must not pass silently
		{"x*", `host pattern "x*" matches no host or group`},
		{"~x", `host pattern "~x" matches no host or group`},
		{"~(", `bad regular expression`},
		{"gpfs[07:09]", `matches no host or group`},
		{"gpfs[3:1]", `after end`},
		{"maintenance", `pattern "maintenance" matches no hosts`},
		{"gpfs:!gpfs", `pattern "gpfs:!gpfs" matches no hosts`},
		{"", `empty host pattern`},
		{" , , ", `empty host pattern`},
		{"::", `empty host pattern`},
		{"gpfs:!", `empty after`},
	}
	for _, tt := range tests {
		_, err := inv.Select(tt.pattern)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Select(%q) error = %v, want one containing %q", tt.pattern, err, tt.want)
		}
	}
}

func TestSelectList(t *testing.T) {
	inv := mustParse(t, "p.hcl", patternInventory)
	got, err := inv.SelectList([]string{"client1", "nsd_servers", "nsd1"})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"nsd1", "nsd2", "client1"}, names(got)); diff != "" {
		t.Errorf("SelectList (-want +got):\n%s", diff)
	}
	_, err = inv.SelectList([]string{"client1", "clinet2", "maintenance"})
	if err == nil || !strings.Contains(err.Error(), "clinet2") || !strings.Contains(err.Error(), "maintenance") {
		t.Errorf("SelectList error = %v, want both bad patterns named", err)
	}
	if _, err := inv.SelectList(nil); err == nil {
		t.Error("SelectList(nil) succeeded")
	}
}

func TestSelectHandBuilt(t *testing.T) {
	inv := &Inventory{
		Hosts:  []*Host{{Name: "a"}, {Name: "b"}},
		Groups: map[string]*Group{"g": {Name: "g", Hosts: []string{"b"}}},
	}
	got, err := inv.Select("g:a")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"a", "b"}, names(got)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestGlobMatch(t *testing.T) {
	tests := []struct {
		glob, name string
		want       bool
	}{
		{"*", "", true},
		{"a*", "abc", true},
		{"*c", "abc", true},
		{"a*c", "ac", true},
		{"a*c", "abcbc", true},
		{"a*c", "abcb", false},
		{"a?c", "abc", true},
		{"a?c", "ac", false},
		{"**b", "aab", true},
		{"abc", "abd", false},
	}
	for _, tt := range tests {
		if got := globMatch(tt.glob, tt.name); got != tt.want {
			t.Errorf("globMatch(%q, %q) = %v", tt.glob, tt.name, got)
		}
	}
}

func TestLimit(t *testing.T) {
	inv := mustParse(t, "p.hcl", patternInventory)
	lim, err := inv.Limit("gpfs0[1:3]:nsd1")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"gpfs01", "gpfs02", "gpfs03", "nsd1"}, names(lim.Hosts)); diff != "" {
		t.Errorf("hosts (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"gpfs01", "gpfs02", "gpfs03", "nsd1"}, lim.Groups["gpfs"].Hosts); diff != "" {
		t.Errorf("gpfs hosts (-want +got):\n%s", diff)
	}
	if got := lim.Groups["clients"].Hosts; len(got) != 0 {
		t.Errorf("clients hosts = %v, want none", got)
	}
	if _, ok := lim.Host("client1"); ok {
		t.Error("client1 still found after Limit")
	}
	if _, err := lim.Select("clients"); err == nil {
		t.Error("selecting an emptied group succeeded")
	}
	if got, err := lim.Select("nsd_servers"); err != nil || !cmp.Equal(names(got), []string{"nsd1"}) {
		t.Errorf("Select(nsd_servers) after Limit = %v, %v", names(got), err)
	}
	if lim.Hash != inv.Hash || len(inv.Hosts) != 10 || len(inv.Groups["clients"].Hosts) != 1 {
		t.Error("Limit changed the original inventory or lost the hash")
	}
	if _, err := inv.Limit("nope"); err == nil {
		t.Error("Limit with a bad pattern succeeded")
	}
}
