package inventory

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestDetectFormat(t *testing.T) {
	tests := []struct {
		name, src string
		want      Format
	}{
		{"inv.hcl", "[x]", FormatHCL},
		{"inv.YAML", "", FormatYAML},
		{"inv.json", "", FormatYAML},
		{"hosts.ini", "all:", FormatINI},
		{"hosts", "# c\n\nhost \"n1\" {}", FormatHCL},
		{"hosts", "defaults {\n}", FormatHCL},
		{"hosts", "// c\ngroup \"g\" {}", FormatHCL},
		{"hosts", "---\nall:", FormatYAML},
		{"hosts", "all:\n  hosts:", FormatYAML},
		{"hosts", "{\"all\": {}}", FormatYAML},
		{"hosts", "; c\n[gpfs]\nn1", FormatINI},
		{"hosts", "n1:2222 ansible_user=root", FormatINI},
		{"hosts", "", FormatINI},
	}
	for _, tt := range tests {
		if got := DetectFormat(tt.name, []byte(tt.src)); got != tt.want {
			t.Errorf("DetectFormat(%q, %q) = %d, want %d", tt.name, tt.src, got, tt.want)
		}
	}
}

// TestSameInventoryAnyFormat parses one cluster written in HCL, INI and
// YAML, saved without extensions so the format is sniffed, and compares
// the renderings.
func TestSameInventoryAnyFormat(t *testing.T) {
	srcs := map[string]string{
		"hcl": `
group "gpfs" {
  children = ["nsd"]
  port     = 2222
  vars     = { pagepool = "4G" }
}
host "n[1:2]" {
  groups = ["nsd"]
  user   = "root"
  vars   = { weight = 10 }
}
host "c1" {
  groups = ["gpfs"]
}
`,
		"ini": `[nsd]
n[1:2] ansible_user=root weight=10

[gpfs]
c1

[gpfs:children]
nsd

[gpfs:vars]
ansible_port=2222
pagepool=4G
`,
		"yaml": `all:
  children:
    gpfs:
      vars: {ansible_port: 2222, pagepool: 4G}
      children:
        nsd:
          hosts:
            n[1:2]: {ansible_user: root, weight: 10}
      hosts:
        c1:
`,
	}
	dir := t.TempDir()
	var renders []string
	for _, f := range []string{"hcl", "ini", "yaml"} {
		path := filepath.Join(dir, "hosts-"+f)
		if err := os.WriteFile(path, []byte(srcs[f]), 0o644); err != nil {
			t.Fatal(err)
		}
		inv := mustLoad(t, path)
		var buf bytes.Buffer
		if err := inv.Render(&buf); err != nil {
			t.Fatal(err)
		}
		renders = append(renders, buf.String())
	}
	for i, f := range []string{"ini", "yaml"} {
		if diff := cmp.Diff(renders[0], renders[i+1]); diff != "" {
			t.Errorf("%s renders differently from hcl (-hcl +%s):\n%s", f, f, diff)
		}
	}
}

func TestLoadMissing(t *testing.T) {
	inv, diags := Load(filepath.Join(t.TempDir(), "nope.hcl"))
	if inv != nil || !diags.HasErrors() || diags[0].Summary != "Failed to read inventory" {
		t.Errorf("Load of a missing file = %v, %s", inv, diags.Error())
	}
}

func TestHash(t *testing.T) {
	a := mustParse(t, "a.hcl", `host "n1" {}`)
	b := mustParse(t, "b.hcl", `host "n1" {}`)
	c := mustParse(t, "a.hcl", `host "n1" {} `)
	if a.Hash != b.Hash || a.Hash == c.Hash {
		t.Errorf("hash must depend on the bytes only: %s %s %s", a.Hash, b.Hash, c.Hash)
	}
	if _, err := hex.DecodeString(a.Hash); err != nil || len(a.Hash) != 64 {
		t.Errorf("hash %q is not hex sha256", a.Hash)
	}
}

func TestMarshalJSON(t *testing.T) {
	inv := mustLoad(t, "testdata/hcl/valid/cluster.hcl")
	data, err := json.Marshal(inv)
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Hosts []struct {
			Name       string
			Address    string
			Connection map[string]any
			Groups     []string
			Vars       map[string]any
		}
		Groups map[string]struct {
			Hosts    []string
			Children []string
		}
		Hash string
	}
	if err := json.Unmarshal(data, &got); err != nil {
		t.Fatal(err)
	}
	if len(got.Hosts) != 7 || got.Hash != inv.Hash {
		t.Fatalf("hosts %d hash %q", len(got.Hosts), got.Hash)
	}
	c := got.Hosts[5]
	if c.Name != "client1" || c.Connection["port"] != 2222.0 || c.Connection["connect_timeout"] != "30s" || c.Connection["become"] != true {
		t.Errorf("client1 = %+v", c)
	}
	wantRDMA := map[string]any{"enabled": true, "mtu": 4096.0, "ports": []any{"mlx5_0/1", "mlx5_1/1"}}
	if diff := cmp.Diff(wantRDMA, c.Vars["rdma"]); diff != "" {
		t.Errorf("rdma as plain JSON (-want +got):\n%s", diff)
	}
	if got.Groups["ungrouped"].Hosts[0] != "bastion" || got.Groups["clients"].Children == nil {
		t.Errorf("groups = %+v (empty lists must be [], not null)", got.Groups)
	}
	y := mustLoad(t, "testdata/yaml/valid/hosts.yml")
	data, err = json.Marshal(y)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(data, []byte(`"nothing":null`)) || !bytes.Contains(data, []byte(`"ratio":0.5`)) {
		t.Errorf("YAML null and float not kept: %s", data)
	}
}
