package inventory

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestFromList(t *testing.T) {
	tests := []struct {
		list  string
		hosts []string
		check func(t *testing.T, inv *Inventory)
	}{
		{list: "host1,host2", hosts: []string{"host1", "host2"}},
		{list: "host1,", hosts: []string{"host1"}},
		{list: " gpfs[01:03] , n9 ,", hosts: []string{"gpfs01", "gpfs02", "gpfs03", "n9"}},
		{list: "root@n1:2222,n2", hosts: []string{"n1", "n2"}, check: func(t *testing.T, inv *Inventory) {
			n1, n2 := host(t, inv, "n1"), host(t, inv, "n2")
			if n1.Connection.User != "root" || n1.Connection.Port != 2222 {
				t.Errorf("n1 = %+v", n1.Connection)
			}
			if n2.Connection.User != "" || n2.Connection.Port != 0 {
				t.Errorf("n2 = %+v, want nothing set", n2.Connection)
			}
		}},
		{list: "[fe80::1]:2200,10.0.0.1", hosts: []string{"fe80::1", "10.0.0.1"}, check: func(t *testing.T, inv *Inventory) {
			if h := host(t, inv, "fe80::1"); h.Address != "fe80::1" || h.Connection.Port != 2200 {
				t.Errorf("ipv6 host = %q %+v", h.Address, h.Connection)
			}
		}},
		{list: "a,b", hosts: []string{"a", "b"}, check: func(t *testing.T, inv *Inventory) {
			if diff := cmp.Diff([]string{"a", "b"}, inv.Groups["ungrouped"].Hosts); diff != "" {
				t.Errorf("ungrouped (-want +got):\n%s", diff)
			}
			other, _ := FromList("b,a")
			if inv.Hash == "" || inv.Hash == other.Hash {
				t.Errorf("hash %q must identify the list", inv.Hash)
			}
		}},
	}
	for _, tt := range tests {
		inv, diags := FromList(tt.list)
		if diags.HasErrors() {
			t.Errorf("FromList(%q): %s", tt.list, diags.Error())
			continue
		}
		if diff := cmp.Diff(tt.hosts, names(inv.Hosts)); diff != "" {
			t.Errorf("FromList(%q) (-want +got):\n%s", tt.list, diff)
		}
		if tt.check != nil {
			tt.check(t, inv)
		}
	}
}

func TestFromListErrors(t *testing.T) {
	tests := []struct{ list, summary, detail string }{
		{"", "Empty host list", ""},
		{" , ,", "Empty host list", ""},
		{"a,n[3:1]", "Invalid host", "after end"},
		{"a,b:http", "Invalid host", "port"},
		{"a,@b", "Invalid host", "user"},
		{"a,a", "Duplicate host", `"a"`},
		{"a,b c", "Invalid host", "contains"},
		{"[fe80::1]x", "Invalid host", "unexpected"},
	}
	for _, tt := range tests {
		inv, diags := FromList(tt.list)
		if inv != nil || !diags.HasErrors() {
			t.Errorf("FromList(%q) succeeded", tt.list)
			continue
		}
		d := diags[0]
		if d.Summary != tt.summary || !strings.Contains(d.Detail, tt.detail) {
			t.Errorf("FromList(%q) = %s, want %s containing %q", tt.list, diags.Error(), tt.summary, tt.detail)
		}
		if d.Subject == nil || d.Subject.Start.Byte < 0 || d.Subject.End.Byte > len(tt.list) {
			t.Errorf("FromList(%q): subject %v outside the list", tt.list, d.Subject)
		}
	}
	_, diags := FromList("ok, bad!")
	if s := diags[0].Subject; s.Start.Byte != 4 || s.End.Byte != 8 {
		t.Errorf("subject = %d..%d, want the item's bytes 4..8", s.Start.Byte, s.End.Byte)
	}
}
