package inventory

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"
)

func mustLoad(t testing.TB, path string) *Inventory {
	t.Helper()
	inv, diags := Load(path)
	if diags.HasErrors() {
		t.Fatalf("load %s: %s", path, diags.Error())
	}
	return inv
}

func mustParse(t testing.TB, filename, src string) *Inventory {
	t.Helper()
	inv, diags := Parse(filename, []byte(src))
	if diags.HasErrors() {
		t.Fatalf("parse %s: %s", filename, diags.Error())
	}
	return inv
}

func host(t testing.TB, inv *Inventory, name string) *Host {
	t.Helper()
	h, ok := inv.Host(name)
	if !ok {
		t.Fatalf("no host %q", name)
	}
	return h
}

func strVars(h *Host) map[string]string {
	out := map[string]string{}
	for k, v := range h.Vars {
		if v.Type() == cty.String {
			out[k] = v.AsString()
		}
	}
	return out
}

func TestHCLCluster(t *testing.T) {
	inv := mustLoad(t, "testdata/hcl/valid/cluster.hcl")
	dir := filepath.Join("testdata", "hcl", "valid")

	var names []string
	for _, h := range inv.Hosts {
		names = append(names, h.Name)
	}
	want := []string{"nsd-extra", "gpfs01", "gpfs02", "gpfs03", "gpfs04", "client1", "bastion"}
	if diff := cmp.Diff(want, names); diff != "" {
		t.Errorf("host order (-want +got):\n%s", diff)
	}

	g3 := host(t, inv, "gpfs03")
	if g3.Address != "10.0.0.13" {
		t.Errorf("gpfs03 address = %q, want the third address of the range", g3.Address)
	}
	wantConn := Connection{
		User:                  "gpfsadmin", // group nsd_servers over defaults
		Port:                  22,
		IdentityFiles:         []string{filepath.Join(dir, "keys/id_ed25519")},
		KnownHosts:            filepath.Join(dir, "known_hosts"),
		SSHConfig:             "/etc/prova/ssh_config",
		StrictHostKeyChecking: "yes",
		ConnectTimeout:        10 * time.Second,
	}
	if diff := cmp.Diff(wantConn, g3.Connection); diff != "" {
		t.Errorf("gpfs03 connection (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"gpfs", "nsd_servers"}, g3.Groups); diff != "" {
		t.Errorf("gpfs03 groups (-want +got):\n%s", diff)
	}
	wantVars := map[string]string{"site": "lab", "tier": "nsd", "ntp_server": "10.0.0.1", "pagepool": "16G", "role": "nsd"}
	if diff := cmp.Diff(wantVars, strVars(g3)); diff != "" {
		t.Errorf("gpfs03 vars (-want +got):\n%s", diff)
	}

	c := host(t, inv, "client1")
	if c.Connection.User != "admin" || c.Connection.Port != 2222 || c.Connection.ProxyJump != "bastion" ||
		!c.Connection.Become || c.Connection.BecomeUser != "gpfs" || c.Connection.ConnectTimeout != 30*time.Second {
		t.Errorf("client1 connection = %+v", c.Connection)
	}
	if diff := cmp.Diff([]string{"~/.ssh/id_ed25519", "/etc/prova/id_rsa"}, c.Connection.IdentityFiles); diff != "" {
		t.Errorf("client1 identity files: home and absolute paths must be kept (-want +got):\n%s", diff)
	}
	ports := c.Vars["rdma"].GetAttr("ports")
	if ports.LengthInt() != 2 || ports.Index(cty.NumberIntVal(1)).AsString() != "mlx5_1/1" {
		t.Errorf("client1 rdma.ports = %#v", ports)
	}
	if got := strVars(c)["tier"]; got != "gpfs" {
		t.Errorf("client1 tier = %q, want gpfs (clients has no tier; gpfs is its parent)", got)
	}

	b := host(t, inv, "bastion")
	if diff := cmp.Diff([]string{"ungrouped"}, b.Groups); diff != "" {
		t.Errorf("bastion groups (-want +got):\n%s", diff)
	}
	if b.Connection.StrictHostKeyChecking != "accept-new" {
		t.Errorf("bastion strict = %q", b.Connection.StrictHostKeyChecking)
	}
	if b.DeclRange.Start.Line != 55 || b.DeclRange.Filename != "testdata/hcl/valid/cluster.hcl" {
		t.Errorf("bastion DeclRange = %s", b.DeclRange)
	}

	gp := inv.Groups["gpfs"]
	if diff := cmp.Diff([]string{"nsd-extra", "gpfs01", "gpfs02", "gpfs03", "gpfs04", "client1"}, gp.Hosts); diff != "" {
		t.Errorf("group gpfs hosts include children's hosts (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"gpfs", "ungrouped"}, inv.Groups["all"].Children); diff != "" {
		t.Errorf("all children (-want +got):\n%s", diff)
	}
	if inv.Defaults.User != "root" || inv.Defaults.Port != 22 {
		t.Errorf("defaults = %+v", inv.Defaults)
	}
	if len(inv.Hash) != 64 || len(inv.Files) != 1 {
		t.Errorf("hash %q files %v", inv.Hash, inv.Files)
	}
}

func TestVarPrecedence(t *testing.T) {
	inv := mustLoad(t, "testdata/hcl/valid/precedence.hcl")
	tests := []struct {
		host   string
		vars   map[string]string
		become bool
	}{
		// alpha and beta have the same depth: beta applies last by name.
		{"h1", map[string]string{"x": "beta", "y": "all", "z": "defaults", "w": "beta"}, false},
		// zchild (depth 2) applies after parent and alpha (depth 1); host vars last.
		{"h2", map[string]string{"x": "parent", "y": "all", "z": "defaults", "w": "host", "v": "zchild"}, true},
		{"h3", map[string]string{"x": "all", "y": "all", "z": "defaults"}, true},
	}
	for _, tt := range tests {
		h := host(t, inv, tt.host)
		if diff := cmp.Diff(tt.vars, strVars(h)); diff != "" {
			t.Errorf("%s vars (-want +got):\n%s", tt.host, diff)
		}
		if h.Connection.Become != tt.become {
			t.Errorf("%s become = %v, want %v (an explicit false must override)", tt.host, h.Connection.Become, tt.become)
		}
	}
	if diff := cmp.Diff([]string{"alpha", "parent", "zchild"}, host(t, inv, "h2").Groups); diff != "" {
		t.Errorf("h2 groups (-want +got):\n%s", diff)
	}
}

func TestHostVarsDoNotLeak(t *testing.T) {
	inv := mustParse(t, "x.hcl", `
host "a[1:2]" {
  vars = { k = "a" }
}
`)
	h1 := host(t, inv, "a1")
	h1.Vars["k"] = cty.StringVal("changed")
	if got := host(t, inv, "a2").Vars["k"].AsString(); got != "a" {
		t.Errorf("hosts of one range share a vars map: a2.k = %q", got)
	}
}

func TestGroupHostsListDeclaresHosts(t *testing.T) {
	inv := mustParse(t, "x.hcl", `
group "g" {
  hosts = ["x[1:2]", "y"]
}
host "y" {
  address = "10.1.1.1"
}
`)
	y := host(t, inv, "y")
	if y.Address != "10.1.1.1" {
		t.Errorf("y address = %q: a host block after a group list must fill in the host", y.Address)
	}
	if diff := cmp.Diff([]string{"x1", "x2", "y"}, inv.Groups["g"].Hosts); diff != "" {
		t.Errorf("g hosts (-want +got):\n%s", diff)
	}
}

func TestTooManyHosts(t *testing.T) {
	src := `host "a[0:60000]" {}
host "b[0:60000]" {}
host "c[0:60000]" {}
`
	_, diags := Parse("big.hcl", []byte(src))
	if !diags.HasErrors() || diags[0].Summary != "Too many hosts" || diags[0].Subject.Start.Line != 2 || len(diags) != 1 {
		t.Errorf("diags = %s, want one Too many hosts on line 2", diags.Error())
	}
}
