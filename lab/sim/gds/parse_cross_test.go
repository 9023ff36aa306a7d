package gds

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/provadev/prova/lab/model"
	"github.com/provadev/prova/lab/scenario"
	"github.com/provadev/prova/lab/sim/simtest"
	"github.com/provadev/prova/parse/gds"
)

// Cross-check: prova's gdscheck parser reads what the simulator prints for
// every node of every GDS example scenario, in all three vocabularies, and
// finds the values the model set.
func TestParserReadsEveryVariant(t *testing.T) {
	files, _ := filepath.Glob("../../../examples/lab/gds-*.hcl")
	if len(files) < 7 {
		t.Fatalf("GDS scenarios: %v", files)
	}
	seen := 0
	for _, f := range files {
		s, diags := scenario.Load(f)
		if diags.HasErrors() {
			t.Fatal(diags)
		}
		for i := 1; i <= 2; i++ {
			base, err := s.Node(i, 2)
			if err != nil {
				t.Fatal(err)
			}
			if base.GDS == nil {
				r := simtest.Run(t, Tool(), base, "-p")
				if r.Status == 0 {
					t.Errorf("%s %s: gdscheck ran without GDS", f, base.Name)
				}
				continue
			}
			for v := range model.GDSReleases {
				n := *base
				n.GDS = release(v)
				name := fmt.Sprintf("%s/%s/%s", filepath.Base(f), n.Name, v)
				seen++
				r := simtest.Run(t, Tool(), &n, "-p")
				c, err := gds.ParseRun([]byte(r.Stdout), []byte(r.Stderr), r.Status)
				if err != nil {
					t.Errorf("%s: %v\n%s", name, err, r.Stdout)
					continue
				}
				checkParsed(t, name, &n, c)
			}
		}
	}
	if seen < 30 {
		t.Errorf("only %d variants checked", seen)
	}
}

func checkParsed(t *testing.T, name string, n *model.Node, c *gds.Check) {
	t.Helper()
	gpu := len(n.GPUs) > 0
	nvfs := n.NvidiaFS && gpu
	if c.NotInstalled || c.GDSVersion != n.GDS.Release || c.NoGPU == gpu || len(c.GPUs) != len(n.GPUs) {
		t.Errorf("%s: version %q no_gpu %t gpus %d", name, c.GDSVersion, c.NoGPU, len(c.GPUs))
	}
	if (c.NvidiaFSVersion == n.GDS.NvidiaFSVersion) != nvfs || (!nvfs && c.NvidiaFSVersion != "") {
		t.Errorf("%s: nvidia_fs version %q, loaded %t", name, c.NvidiaFSVersion, nvfs)
	}
	if c.IOMMUEnabled != n.IOMMU || !c.PlatformVerified {
		t.Errorf("%s: iommu %t (%q) verified %t", name, c.IOMMUEnabled, c.IOMMU, c.PlatformVerified)
	}
	d, ok := c.Driver("gpfs")
	if !ok || d.Supported != (nvfs && n.HasFileSystem("gpfs")) {
		t.Errorf("%s: gpfs driver %+v %t", name, d, ok)
	}
	if _, ok := c.Driver("ceph"); ok {
		t.Errorf("%s: gdscheck lists CephFS", name)
	}
	for _, g := range c.GPUs {
		if !g.SupportsGDS || (g.IOMMUState == "Disabled") == n.IOMMU {
			t.Errorf("%s: gpu %+v", name, g)
		}
	}
	if len(c.Errors) != 0 {
		t.Errorf("%s: errors %q", name, c.Errors)
	}
}

// The lab's cufile.json reads as cuFile's configuration: configured nodes
// list the addresses of their Active RDMA ports (one second octet up per
// HCA; a Down port is left out), "first_nic" only the first, "default" is
// NVIDIA's file as installed.
func TestCufileParsed(t *testing.T) {
	port := func(netdev, state string) model.Port { return model.Port{Num: 1, Netdev: netdev, State: state} }
	n := &model.Node{Name: "gds01", DataAddress: "10.10.0.1", GDS: &model.GDS{Release: "1.16.0.49"}, HCAs: []model.HCA{
		{Name: "mlx5_0", Ports: []model.Port{port("ib0", "Active")}}, {Name: "mlx5_1", Ports: []model.Port{port("ib1", "Active")}},
		{Name: "mlx5_2", Ports: []model.Port{port("ib2", "Down")}}}}
	both := "10.10.0.1,10.11.0.1"
	for mode, want := range map[string]string{"": both, "configured": both, "default": "", "force_compat": both, "first_nic": "10.10.0.1"} {
		n.Cufile = mode
		text, ok := CufileJSON(n)
		c, err := gds.ParseCufile([]byte(text))
		if !ok || err != nil {
			t.Fatalf("%q: %v %v", mode, ok, err)
		}
		if got := strings.Join(c.AddrList("gpfs"), ","); got != want || (c.ForceCompatMode != nil) != (mode == "force_compat") {
			t.Errorf("%q: addr list %q force %v", mode, got, c.ForceCompatMode)
		}
	}
	n.Cufile = "absent"
	if _, ok := CufileJSON(n); ok {
		t.Error("absent cufile.json written")
	}
}
