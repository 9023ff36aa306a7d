package scenario

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestExtends(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "base.hcl"), []byte(`
cluster {
  name  = "base.lab"
  nodes = 3
}
defaults {
  cpus = 16
  ofed = "MLNX_OFED_LINUX-23.10-1.1.9.0"
}
node "gpfs02" {
  ofed = "MLNX_OFED_LINUX-5.8-1.0.1.1"
}
`), 0o644)
	os.WriteFile(filepath.Join(dir, "fault.hcl"), []byte(`
extends = "base.hcl"
cluster {
  nodes = 4
}
defaults {
  cpus = 64
}
node "gpfs03" {
  faults {
    ssh_down = true
  }
}
`), 0o644)
	s, diags := Load(filepath.Join(dir, "fault.hcl"))
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	if s.Name != "base.lab" || s.Nodes != 4 {
		t.Errorf("cluster: name %q nodes %d; the base's name, this file's count", s.Name, s.Nodes)
	}
	n2, _ := s.Node(2, 4)
	n3, _ := s.Node(3, 4)
	if n2.CPUs != 64 || n2.OFED != "MLNX_OFED_LINUX-5.8-1.0.1.1" {
		t.Errorf("gpfs02: cpus %d ofed %q; defaults overlaid, the base's node block kept", n2.CPUs, n2.OFED)
	}
	if !n3.Faults.SSHDown || n3.OFED != "MLNX_OFED_LINUX-23.10-1.1.9.0" {
		t.Errorf("gpfs03: %+v", n3)
	}

	os.WriteFile(filepath.Join(dir, "a.hcl"), []byte(`extends = "b.hcl"`), 0o644)
	os.WriteFile(filepath.Join(dir, "b.hcl"), []byte(`extends = "a.hcl"`), 0o644)
	if _, diags := Load(filepath.Join(dir, "a.hcl")); !diags.HasErrors() || !strings.Contains(diags.Error(), "extend too deep") {
		t.Errorf("a cycle must be an error: %v", diags)
	}
	if _, diags := Load(filepath.Join(dir, "fault-missing.hcl")); !diags.HasErrors() {
		t.Error("missing file")
	}
	os.WriteFile(filepath.Join(dir, "c.hcl"), []byte(`extends = "nope.hcl"`), 0o644)
	if _, diags := Load(filepath.Join(dir, "c.hcl")); !diags.HasErrors() || diags[0].Subject == nil {
		t.Errorf("a missing base must point at the extends line: %v", diags)
	}
}
