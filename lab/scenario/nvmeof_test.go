package scenario

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/provadev/prova/lab/model"
)

func TestNVMeoFExamples(t *testing.T) {
	for _, c := range []struct {
		file       string
		transports string
		node3Rate  int
		fault      string
	}{
		{"nvmeof-healthy.hcl", "rdma tcp", 100, ""},
		{"nvmeof-one-ssd.hcl", "rdma tcp", 100, ""},
		{"nvmeof-no-rdma-target.hcl", "tcp", 100, ""},
		{"nvmeof-lossless.hcl", "rdma tcp", 100, "lossless"},
		{"nvmeof-slow-port.hcl", "rdma tcp", 25, ""},
	} {
		s, diags := Load(filepath.Join("..", "..", "examples", "lab", c.file))
		if diags.HasErrors() {
			t.Fatalf("%s: %v", c.file, diags)
		}
		n, err := s.Node(3, s.Nodes)
		if err != nil {
			t.Fatal(err)
		}
		tg := n.NVMeoF
		if tg == nil || tg.NQN != model.DefaultTargetNQN || tg.Address != "10.10.0.100" || tg.Port != 4420 ||
			strings.Join(tg.Transports, " ") != c.transports || len(tg.NamespacesGB) != 1 {
			t.Errorf("%s target: %+v", c.file, tg)
		}
		if s.Nodes != 4 || n.Name != "host03" || n.NVMeDrives != 1 || n.HCAs[0].Ports[0].Rate != c.node3Rate ||
			n.HCAs[0].Ports[0].LinkLayer != "Ethernet" || n.Faults.RDMAConnect != c.fault {
			t.Errorf("%s host03: %+v", c.file, n)
		}
	}
}

func TestNVMeoFDefaultsAndAbsent(t *testing.T) {
	if tg := Healthy().Target(); tg == nil || strings.Join(tg.Transports, ",") != "rdma,tcp" || tg.NQN != model.DefaultTargetNQN {
		t.Errorf("built-in target: %+v", tg)
	}
	s, diags := Parse("a.hcl", []byte("nvmeof_target {\n  absent = true\n}\n"))
	if diags.HasErrors() || s.Target() != nil {
		t.Errorf("absent target: %+v %v", s.Target(), diags)
	}
	n, _ := s.Node(1, 1)
	if n.NVMeoF != nil {
		t.Errorf("node sees an absent target")
	}
	// Each node gets its own copy.
	h := Healthy()
	a, _ := h.Node(1, 2)
	a.NVMeoF.Transports[0] = "x"
	if b, _ := h.Node(2, 2); b.NVMeoF.Transports[0] != "rdma" {
		t.Error("nodes share the target's slices")
	}
}

func TestNVMeoFInvalid(t *testing.T) {
	for src, want := range map[string]string{
		`transports = ["rdma", "fc"]`: `got "fc"`,
		`address = "target.example"`:  "IPv4",
		`nqn = "target1"`:             `start with "nqn."`,
		`namespaces_gb = [1.5]`:       "whole sizes",
		`namespaces_gb = []`:          "at least one namespace",
		`port = 70000`:                "from 1 to 65535",
		`rate = 30`:                   "rate must be 0",
		`firmware = "123456789"`:      "at most 8",
		`colour = "red"`:              "Unsupported argument",
	} {
		_, diags := Parse("bad.hcl", []byte("nvmeof_target {\n  "+src+"\n}\n"))
		if !diags.HasErrors() || !strings.Contains(diags.Error(), want) || !strings.Contains(diags.Error(), "bad.hcl:2") {
			t.Errorf("%s: %v, want %q at line 2", src, diags, want)
		}
	}
	_, diags := Parse("dup.hcl", []byte("nvmeof_target {}\nnvmeof_target {}\n"))
	if !diags.HasErrors() || !strings.Contains(diags.Error(), "Duplicate nvmeof_target block") {
		t.Errorf("duplicate: %v", diags)
	}
}
