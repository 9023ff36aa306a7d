package scenario

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/provadev/prova/lab/model"
)

func load(t *testing.T, path string) *Scenario {
	t.Helper()
	s, diags := Load(path)
	if diags.HasErrors() {
		t.Fatalf("%s: %v", path, diags)
	}
	return s
}

func node(t *testing.T, s *Scenario, i, total int) *model.Node {
	t.Helper()
	n, err := s.Node(i, total)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func TestExamplesAndValidFixturesParse(t *testing.T) {
	files, _ := filepath.Glob("../../examples/lab/*.hcl")
	valid, _ := filepath.Glob("testdata/valid/*.hcl")
	files = append(files, valid...)
	if len(files) < 7 {
		t.Fatalf("expected the five examples and the valid fixtures, found %v", files)
	}
	for _, f := range files {
		s := load(t, f)
		for i := 1; i <= 6; i++ {
			node(t, s, i, 6)
		}
	}
}

// Each invalid fixture gives an error whose range points at the offending
// line and column, and whose text names the problem.
func TestInvalidFixturesDiagnostics(t *testing.T) {
	cases := map[string]struct {
		line, col int
		want      string
	}{
		"unknown-attr.hcl":   {3, 3, "Unsupported argument"},
		"bad-state.hcl":      {4, 16, `state must be one of Active, Down, Initializing, Armed; got "Broken"`},
		"bad-duration.hcl":   {3, 24, `handshake_delay must be a duration`},
		"duplicate-node.hcl": {2, 1, "gpfs02\" was already defined at testdata/invalid/duplicate-node.hcl:1"},
		"bad-rate.hcl":       {4, 14, "rate must be one of"},
		"bad-regexp.hcl":     {3, 16, "Invalid regular expression for drop_on"},
		"syntax.hcl":         {2, 10, "Invalid expression"},
		"bad-relation.hcl":   {3, 12, `pcie["mlx5_0"] must be one of PIX, PXB, PHB, NODE, SYS`},
		"bad-port-label.hcl": {3, 10, "port label must be a number"},
	}
	files, _ := filepath.Glob("testdata/invalid/*.hcl")
	if len(files) != len(cases) {
		t.Fatalf("fixtures %v do not match the %d cases", files, len(cases))
	}
	for _, f := range files {
		c := cases[filepath.Base(f)]
		_, diags := Load(f)
		if !diags.HasErrors() {
			t.Errorf("%s: no error", f)
			continue
		}
		d := diags.Errs()[0]
		msg := d.Error()
		if !strings.Contains(msg, c.want) {
			t.Errorf("%s: diagnostic %q does not contain %q", f, msg, c.want)
		}
		var rng = diags[0].Subject
		if rng == nil || rng.Filename != f || rng.Start.Line != c.line || rng.Start.Column != c.col {
			t.Errorf("%s: diagnostic at %v, want %s:%d:%d", f, rng, f, c.line, c.col)
		}
	}
}

func TestMissingFile(t *testing.T) {
	_, diags := Load(filepath.Join(t.TempDir(), "nope.hcl"))
	if !diags.HasErrors() || !strings.Contains(diags.Error(), "no such file") {
		t.Fatalf("got %v", diags)
	}
}

func TestHealthyDefaults(t *testing.T) {
	s := Healthy()
	n := node(t, s, 3, 3)
	if n.Name != "gpfs03" || strings.Join(n.Groups, ",") != "gpfs,clients" {
		t.Errorf("node 3: %s %v", n.Name, n.Groups)
	}
	if g := node(t, s, 1, 3).Groups; strings.Join(g, ",") != "gpfs,nsd_servers,quorum" {
		t.Errorf("node 1 groups %v", g)
	}
	if !n.PortUsable("mlx5_0", 1) || !n.PortUsable("mlx5_1", 1) || n.PortUsable("mlx5_1", 2) {
		t.Errorf("healthy ports wrong: %+v", n.HCAs)
	}
	if n.OFED != "MLNX_OFED_LINUX-23.10-1.1.9.0" || n.MemoryGiB != 256 || n.CPUs != 32 {
		t.Errorf("defaults: %+v", n)
	}
	if n.DataAddress != "10.10.0.4" {
		t.Errorf("data address %s", n.DataAddress)
	}
	if a, b := node(t, s, 1, 3).HCAs[0].NodeGUID, n.HCAs[0].NodeGUID; a == b {
		t.Error("nodes share a GUID")
	}
}

func TestFallbackScenario(t *testing.T) {
	s := load(t, "../../examples/lab/fallback.hcl")
	if s.Nodes != 4 {
		t.Errorf("nodes = %d", s.Nodes)
	}
	n3 := node(t, s, 3, 4)
	p, ok := n3.HCAs[1].Port(1)
	if !ok || p.State != "Down" || p.PhysState != "Polling" || p.NetdevUp || p.LID != 0 {
		t.Errorf("gpfs03 mlx5_1/1 = %+v", p)
	}
	if n3.PortUsable("mlx5_1", 1) || !n3.PortUsable("mlx5_0", 1) {
		t.Error("gpfs03 port usability wrong")
	}
	n4 := node(t, s, 4, 4)
	if _, ok := n4.HCA("mlx5_1"); ok || len(n4.HCAs) != 1 {
		t.Errorf("gpfs04 still has mlx5_1: %+v", n4.HCAs)
	}
	if !node(t, s, 1, 4).PortUsable("mlx5_1", 1) {
		t.Error("gpfs01 should be healthy")
	}
}

func TestOFEDMismatchAndRoCE(t *testing.T) {
	s := load(t, "../../examples/lab/ofed-mismatch.hcl")
	if v := node(t, s, 2, 3).OFED; v != "MLNX_OFED_LINUX-5.4-3.1.0.0" {
		t.Errorf("gpfs02 ofed %q", v)
	}
	if v := node(t, s, 3, 3).OFED; v != "" {
		t.Errorf("gpfs03 ofed %q, want none", v)
	}
	r := load(t, "testdata/valid/ethernet-roce.hcl")
	n1 := node(t, r, 1, 2)
	if len(n1.HCAs) != 1 {
		t.Fatalf("defaults with hca blocks must replace the built-in set: %+v", n1.HCAs)
	}
	p := n1.HCAs[0].Ports[0]
	if p.LinkLayer != "Ethernet" || p.PhysState != "Disabled" || p.Rate != 100 || p.Netdev != "ens1f0np0" {
		t.Errorf("roce port %+v", p)
	}
}

func TestGPUScenario(t *testing.T) {
	s := load(t, "../../examples/lab/gpu.hcl")
	n1, n2 := node(t, s, 1, 2), node(t, s, 2, 2)
	g0, _ := n1.GPU("GPU0")
	g1, _ := n1.GPU("GPU1")
	for _, c := range []struct{ got, want string }{
		{n1.Relation(g0, "mlx5_0"), "PIX"}, {n1.Relation(g1, "mlx5_0"), "PXB"},
		{n1.Relation(g0, "mlx5_1"), "SYS"}, {n1.Relation(g0, "GPU1"), "NV18"},
	} {
		if c.got != c.want {
			t.Errorf("relation %s, want %s", c.got, c.want)
		}
	}
	g0b, _ := n2.GPU("GPU0")
	if r := n2.Relation(g0b, "mlx5_0"); r != "SYS" || !n2.IOMMU || n2.NvidiaFS || len(n2.HCAs) != 1 {
		t.Errorf("gpfs02: relation %s iommu %v nvidia_fs %v hcas %d", r, n2.IOMMU, n2.NvidiaFS, len(n2.HCAs))
	}
	if n1.Groups[1] != "clients" {
		t.Errorf("servers = 0 should make every node a client: %v", n1.Groups)
	}
}

func TestFaultsScenario(t *testing.T) {
	s := load(t, "../../examples/lab/faults-ssh.hcl")
	f := func(i int) model.Faults { return node(t, s, i, 6).Faults }
	if !f(2).SSHDown || f(3).HandshakeDelay.Seconds() != 3 || f(4).DropOn == "" || f(4).DropAfter.Milliseconds() != 200 ||
		f(5).HangOn == "" || f(6).RDMAConnect != "firewall" || f(1) != (model.Faults{}) {
		t.Errorf("faults: %+v %+v %+v %+v %+v", f(2), f(3), f(4), f(5), f(6))
	}
}

func FuzzParse(f *testing.F) {
	for _, g := range []string{"../../examples/lab/*.hcl", "testdata/*/*.hcl"} {
		files, _ := filepath.Glob(g)
		for _, p := range files {
			b, _ := os.ReadFile(p)
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		s, diags := Parse("fuzz.hcl", src)
		if diags.HasErrors() {
			return
		}
		if _, err := s.Node(1, 2); err != nil {
			t.Fatalf("parsed scenario does not resolve: %v", err)
		}
	})
}
