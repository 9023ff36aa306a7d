package inventory

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zclconf/go-cty/cty"
)

func writeTree(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, body := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestGroupAndHostVarsBesideTheInventory(t *testing.T) {
	dir := writeTree(t, map[string]string{
		"hosts": "[gpfs]\nn1\nn2 ansible_user=inline\n[gpfs:vars]\nrole=storage\n",
		// group_vars/all.yml: the connection user every host gets
		"group_vars/all.yml": "ansible_user: ubuntu\ncolour: blue\n",
		// a group directory: files in name order, later wins
		"group_vars/gpfs/10-main.yml":   "role: from-dir\npagepool: 4G\n",
		"group_vars/gpfs/20-extra.yaml": "pagepool: 8G\n",
		"group_vars/gpfs/.hidden.yml":   "pagepool: hidden\n",
		"group_vars/nosuch.yml":         "ignored: true\n",
		"host_vars/n1.yml":              "ansible_host: 10.0.0.1\nansible_port: 2222\nrack: r1\n",
		"host_vars/n2":                  "rack: r2\n",
	})
	inv, diags := Load(filepath.Join(dir, "hosts"))
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	n1, _ := inv.Host("n1")
	n2, _ := inv.Host("n2")
	if n1.Address != "10.0.0.1" || n1.Connection.Port != 2222 || n1.Connection.User != "ubuntu" {
		t.Errorf("n1 = %s:%d user %s", n1.Address, n1.Connection.Port, n1.Connection.User)
	}
	if n2.Connection.User != "inline" {
		t.Errorf("n2 user %q: the host's own variable must win over group_vars/all", n2.Connection.User)
	}
	want := map[string]string{"colour": "blue", "role": "from-dir", "pagepool": "8G", "rack": "r1"}
	for k, v := range want {
		if got := n1.Vars[k]; got.Type() != cty.String || got.AsString() != v {
			t.Errorf("n1 %s = %#v, want %q", k, got, v)
		}
	}
	if _, ok := n1.Vars["ignored"]; ok {
		t.Error("group_vars of a group that does not exist was applied")
	}
	if len(inv.Files) < 6 {
		t.Errorf("Files = %q", inv.Files)
	}
}

func TestInventoryDirectory(t *testing.T) {
	dir := writeTree(t, map[string]string{
		"01-hosts":         "[a]\nh1\n",
		"02-more.yml":      "all:\n  children:\n    b:\n      hosts:\n        h2:\n",
		"sub/03-hosts":     "[c]\nh3\n",
		"old.ini":          "[ignored]\nx1\n",
		"README.md":        "# not an inventory\n",
		"hosts.bak":        "[ignored]\nx2\n",
		".hidden":          "[ignored]\nx3\n",
		"group_vars/a":     "va: 1\n",
		"host_vars/h3.yml": "vh: 3\n",
	})
	inv, diags := Load(dir)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	names := strings.Join(inv.Names(), ",")
	if names != "h1,h2,h3" {
		t.Errorf("hosts %s", names)
	}
	h1, _ := inv.Host("h1")
	h3, _ := inv.Host("h3")
	if v := h1.Vars["va"]; v.IsNull() || v.Type() != cty.Number {
		t.Errorf("h1 va = %#v", v)
	}
	if _, ok := h3.Vars["vh"]; !ok {
		t.Errorf("h3 vars %v", h3.Vars)
	}
	if _, ok := inv.Groups["ignored"]; ok {
		t.Error("a file Ansible ignores was read")
	}
}

func TestINIFileNamedYAML(t *testing.T) {
	inv, diags := Parse("hosts.yml", []byte("[web]\nw1 ansible_host=10.0.0.5\n"))
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	if h, ok := inv.Host("w1"); !ok || h.Address != "10.0.0.5" {
		t.Errorf("w1 = %+v", h)
	}
	// real YAML errors are still reported as YAML errors
	if _, diags := Parse("bad.yml", []byte("all:\n  hosts: [unclosed\n")); !diags.HasErrors() {
		t.Error("bad YAML accepted")
	}
}

func TestGroupLevelAnsibleHost(t *testing.T) {
	inv, diags := Parse("hosts", []byte("[vip]\nservice\n[vip:vars]\nansible_host=10.9.9.9\n"))
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	h, _ := inv.Host("service")
	if h.Address != "10.9.9.9" {
		t.Errorf("address %q", h.Address)
	}
}

func TestUTF8HostName(t *testing.T) {
	inv, diags := Parse("hosts", []byte("[g]\npříbor ansible_host=10.0.0.7\n"))
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	if h, ok := inv.Host("příbor"); !ok || h.Address != "10.0.0.7" {
		t.Errorf("příbor = %+v", h)
	}
	if _, diags := Parse("hosts", []byte("[g]\nbad;name\n")); !diags.HasErrors() {
		t.Error("a host name with ; accepted")
	}
}
