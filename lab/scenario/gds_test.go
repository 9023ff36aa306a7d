package scenario

import (
	"strings"
	"testing"
)

func parseSrc(t *testing.T, src string) *Scenario {
	t.Helper()
	s, diags := Parse("test.hcl", []byte(src))
	if diags.HasErrors() {
		t.Fatalf("parse: %v", diags)
	}
	return s
}

func TestGDSDefaultsFollowGPUs(t *testing.T) {
	s := parseSrc(t, `node "gpfs02" {
  gpu "GPU0" {}
}`)
	if n := node(t, s, 1, 2); n.GDS != nil {
		t.Errorf("node without GPU has GDS: %+v", n.GDS)
	}
	n := node(t, s, 2, 2)
	if n.GDS == nil || n.GDS.Release != "1.16.0.49" || n.GDS.NvidiaFSVersion != "2.27" || !n.GDS.CapabilityLists() {
		t.Errorf("node with GPU: %+v", n.GDS)
	}
}

func TestGDSBlock(t *testing.T) {
	s := parseSrc(t, `gds {
  version   = "1.14"
  installed = true
}`)
	n := node(t, s, 1, 1)
	if n.GDS == nil || n.GDS.Release != "1.14.0.30" || n.GDS.CapabilityLists() {
		t.Errorf("gds = %+v", n.GDS)
	}
	s = parseSrc(t, `gds {
  installed = false
}
defaults {
  gpu "GPU0" {}
}`)
	if n := node(t, s, 1, 1); n.GDS != nil {
		t.Errorf("installed = false left GDS: %+v", n.GDS)
	}
}

func TestCephBlock(t *testing.T) {
	s := parseSrc(t, `node "ceph02" {
  filesystems = ["ceph"]
}
node "ceph03" {
  filesystems = ["ceph"]
}
ceph {
  node "ceph02" {
    ms_type = "async+rdma"
    section = "osd"
  }
  ms_cluster_type = "async+posix"
}
cluster {
  node_prefix = "ceph"
}`)
	if n := node(t, s, 1, 3); n.Ceph != nil {
		t.Errorf("node without ceph has ceph.conf: %+v", n.Ceph)
	}
	two, three := node(t, s, 2, 3), node(t, s, 3, 3)
	if c := two.Ceph; c == nil || c.MsType != "async+rdma" || c.MsClusterType != "async+posix" || c.Section != "osd" {
		t.Fatalf("ceph02 = %+v", c)
	}
	want := "[global]\n\tfsid = 6a1b2c3d-0000-4000-8000-000000000001\n\tmon_host = " + two.DataAddress +
		"\n\n[osd]\n\tms_type = async+rdma\n\tms_cluster_type = async+posix\n"
	if got := two.Ceph.Conf(); got != want {
		t.Errorf("ceph02 conf = %q, want %q", got, want)
	}
	if c := three.Ceph; c == nil || c.MsType != "async+posix" || !strings.Contains(c.Conf(), "[global]\n\tfsid") ||
		!strings.Contains(c.Conf(), "\tms_type = async+posix\n\tms_cluster_type = async+posix\n") {
		t.Errorf("ceph03 = %+v\n%s", c, c.Conf())
	}
}

func TestGDSCephDiagnostics(t *testing.T) {
	for src, want := range map[string]string{
		"gds {\n  version = \"2.0\"\n}":                          `version must be one of 1.14, 1.15, 1.16; got "2.0"`,
		"gds {\n  installed = \"maybe\"\n}":                      "Invalid value for installed",
		"ceph {\n  ms_type = \"async+tcp\"\n}":                   `ms_type must be one of`,
		"ceph {\n  node \"a\" {\n    ms_public_type = 1\n  }\n}": `ms_public_type must be one of`,
		"ceph {\n  node \"a\" {}\n  node \"a\" {}\n}":            `node "a" was already defined`,
		"ceph {\n  section = \"a b\"\n}":                         "section must be a ceph.conf section name",
		"gds {}\ngds {}":                                         "Duplicate gds block",
	} {
		_, diags := Parse("bad.hcl", []byte(src))
		if !diags.HasErrors() || !strings.Contains(diags.Error(), want) {
			t.Errorf("%q: diagnostics %v, want %q", src, diags, want)
		}
	}
}
