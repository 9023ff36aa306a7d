package inventory

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/zclconf/go-cty/cty"
)

func labCluster() *GPFSCluster {
	return &GPFSCluster{Name: "lab.prova", ID: "1", Admin: "gpfs01", Nodes: []GPFSNode{
		{Number: 1, DaemonName: "gpfs01.data", DaemonAddress: "10.0.0.1", AdminName: "gpfs01.mgmt", Designation: "quorum-manager", Quorum: true, Manager: true, NSDServer: true, Classes: []string{"quorumNodes", "nsdNodes", "siteA"}},
		{Number: 2, DaemonName: "gpfs02.data", DaemonAddress: "10.0.0.2", AdminName: "gpfs02.mgmt", Designation: "quorum", Quorum: true, Classes: []string{"quorumNodes", "siteA"}},
		{Number: 3, DaemonName: "gpfs03.data", DaemonAddress: "10.0.0.3", AdminName: "gpfs03.mgmt", Classes: []string{"clientNodes", "GUI_MGMT_SERVERS", "bad.class"}},
	}}
}

func TestGPFSClusterMerge(t *testing.T) {
	src := `defaults {
  user = "root"
}
gpfs_cluster {
  admin       = "gpfs01.mgmt"
  short_names = true
}
# A static entry overrides the address and adds and overrides vars.
host "gpfs02" {
  address = "192.168.1.2"
  groups  = ["racked"]
  vars    = { rack = "r7", gpfs_designation = "mine" }
}
group "siteA" {
  vars = { site = "A" }
}
host "bastion" {}
`
	inv, diags := Parse("inv.hcl", []byte(src))
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	if len(inv.GPFS) != 1 || inv.GPFS[0].Admin != "gpfs01.mgmt" || inv.GPFS[0].Group != "gpfs" || !inv.GPFS[0].ShortNames {
		t.Fatalf("sources %+v", inv.GPFS)
	}
	if got := inv.Names(); !slices.Equal(got, []string{"gpfs02", "bastion"}) {
		t.Fatalf("before discovery: %v", got)
	}
	merged, diags := inv.WithGPFS([]*GPFSCluster{labCluster()})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	if got := merged.Names(); !slices.Equal(got, []string{"gpfs02", "bastion", "gpfs01", "gpfs03"}) {
		t.Fatalf("hosts %v", got)
	}
	h2, _ := merged.Host("gpfs02")
	if h2.Address != "192.168.1.2" || h2.Vars["rack"].AsString() != "r7" || h2.Vars["gpfs_designation"].AsString() != "mine" ||
		h2.Vars["gpfs_daemon_address"].AsString() != "10.0.0.2" || h2.Vars["site"].AsString() != "A" || h2.Connection.User != "root" {
		t.Errorf("gpfs02 %+v", h2)
	}
	if !slices.Contains(h2.Groups, "racked") || !slices.Contains(h2.Groups, "quorum") || slices.Contains(h2.Groups, "clients") {
		t.Errorf("gpfs02 groups %v", h2.Groups)
	}
	h1, _ := merged.Host("gpfs01")
	if h1.Address != "gpfs01.mgmt" || !h1.Vars["gpfs_node_number"].Equals(cty.NumberIntVal(1)).True() {
		t.Errorf("gpfs01 %+v", h1)
	}
	want := map[string][]string{
		"gpfs": {"gpfs02", "gpfs01", "gpfs03"}, "quorum": {"gpfs02", "gpfs01"}, "manager": {"gpfs01"},
		"nsd_servers": {"gpfs01"}, "clients": {"gpfs03"}, "siteA": {"gpfs02", "gpfs01"},
		"GUI_MGMT_SERVERS": {"gpfs03"}, "quorumNodes": {"gpfs02", "gpfs01"}, "ungrouped": {"bastion"},
	}
	for g, hosts := range want {
		if got := merged.Groups[g]; got == nil || !slices.Equal(got.Hosts, hosts) {
			t.Errorf("group %s = %+v, want %v", g, got, hosts)
		}
	}
	if _, ok := merged.Groups["bad.class"]; ok {
		t.Error("an invalid group name became a group")
	}
	// --limit on a node class.
	l, err := merged.Limit("siteA:&quorum")
	if err != nil || !slices.Equal(l.Names(), []string{"gpfs02", "gpfs01"}) {
		t.Errorf("limit siteA: %v %v", l, err)
	}
	// The hash follows the nodes, not the time asked.
	c2 := labCluster()
	c2.Nodes = c2.Nodes[:2]
	m2, _ := inv.WithGPFS([]*GPFSCluster{c2})
	if m2.Hash == merged.Hash || m2.Hash == inv.Hash {
		t.Error("hash does not follow the nodes found")
	}
}

func TestGPFSClusterErrorsAndFromGPFS(t *testing.T) {
	for src, want := range map[string]string{
		"gpfs_cluster {}\n": `The argument "admin" is required`,
		"gpfs_cluster {\n  admin = \"a\"\n}\ngpfs_cluster {\n  admin = \"a\"\n}\n": "Duplicate gpfs_cluster",
		"gpfs_cluster {\n  admin = \"a\"\n  group = \"x y\"\n}\n":                  "Invalid group name",
		"gpfs_cluster {\n  admin = \"a\"\n  adnim = 1\n}\n":                        "Unsupported argument",
	} {
		_, diags := Parse("inv.hcl", []byte(src))
		if !diags.HasErrors() || !strings.Contains(diags.Error(), want) {
			t.Errorf("%q: %v, want %q", src, diags, want)
		}
	}
	// Detected as HCL by content.
	if DetectFormat("inventory", []byte("gpfs_cluster {\n  admin = \"a\"\n}\n")) != FormatHCL {
		t.Error("gpfs_cluster not detected as HCL")
	}
	if _, err := FromGPFS(GPFSSource{Admin: "../x"}); err == nil || !strings.Contains(err.Error(), "GPFS admin node") {
		t.Errorf("FromGPFS ../x: %v", err)
	}
	inv, err := FromGPFS(GPFSSource{Admin: "gpfs01.mgmt"})
	if err != nil {
		t.Fatal(err)
	}
	m, diags := inv.WithGPFS([]*GPFSCluster{labCluster()})
	if diags.HasErrors() || !slices.Equal(m.Names(), []string{"gpfs01.mgmt", "gpfs02.mgmt", "gpfs03.mgmt"}) {
		t.Fatalf("%v %v", m, diags)
	}
	// --from-gpfs with an HCL file adds a source; with an INI one it is refused.
	hclInv, _ := Parse("inv.hcl", []byte("host \"x\" {}\n"))
	added, err := hclInv.AddGPFS(GPFSSource{Admin: "gpfs01.mgmt"})
	if err != nil || len(added.GPFS) != 1 || !slices.Equal(added.Names(), []string{"x"}) {
		t.Fatalf("AddGPFS: %v %v", added, err)
	}
	ini, _ := Parse("hosts.ini", []byte("[g]\nx\n"))
	if _, err := ini.AddGPFS(GPFSSource{Admin: "a"}); err == nil || !strings.Contains(err.Error(), "HCL inventory only") {
		t.Errorf("INI AddGPFS: %v", err)
	}
}

func TestGPFSClusterJSON(t *testing.T) {
	inv, _ := Parse("inv.hcl", []byte("gpfs_cluster {\n  admin = \"gpfs01.mgmt\"\n}\n"))
	c := labCluster()
	c.FetchedAt = time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	m, diags := inv.WithGPFS([]*GPFSCluster{c})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	want := `"gpfs_clusters":[{"admin":"gpfs01.mgmt","group":"gpfs","cluster":"lab.prova","id":"1","nodes":3,"node_classes":[],"fetched_at":"2026-12-01T10:00:00Z"}]`
	if !strings.Contains(string(b), want) {
		t.Errorf("JSON lacks %s:\n%s", want, b)
	}
	plain, _ := json.Marshal(mustParse(t, "inv.hcl", "host \"x\" {}\n"))
	if strings.Contains(string(plain), "gpfs_clusters") {
		t.Error("an inventory without GPFS source has gpfs_clusters")
	}
}
