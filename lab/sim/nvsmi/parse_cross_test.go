package nvsmi

import (
	"strings"
	"testing"

	"github.com/provadev/prova/internal/testkit/samples"
	"github.com/provadev/prova/lab/model"
	"github.com/provadev/prova/lab/sim/simtest"
	"github.com/provadev/prova/parse/lspci"
)

// The lab's lspci reads back through prova's parser as the tree the model
// implies: GPU0 and mlx5_0 below two downstream ports of sw0, ACS
// redirecting there only when the model lists sw0; GPU1 on a root port of
// its own. Its ACS lines are the sample's.
func TestLspciTree(t *testing.T) {
	n := &model.Node{Name: "gds01", HCAs: []model.HCA{{Name: "mlx5_0", PCI: "0000:17:00.0", PCIeSwitch: "sw0"}, {Name: "mlx5_1", PCI: "0000:37:00.0", PCIeSwitch: "sw1"}},
		GPUs: []model.GPU{{Name: "GPU0", Model: "NVIDIA H100 80GB HBM3", PCIeSwitch: "sw0"}, {Name: "GPU1", Model: "NVIDIA H100 80GB HBM3"},
			{Name: "GPU2", Model: "NVIDIA H100 80GB HBM3", PCIeSwitch: "sw1"}}, ACSSwitches: []string{"sw1"}}
	if n.GPUPCI(0) != "0000:1b:00.0" || n.GPUPCI(1) != "0000:2a:00.0" || n.GPUPCI(2) != "0000:3b:00.0" {
		t.Errorf("GPU buses %s %s %s", n.GPUPCI(0), n.GPUPCI(1), n.GPUPCI(2))
	}
	r := simtest.Run(t, Lspci(), n, "-vvv", "-D")
	d, err := lspci.ParseVerbose([]byte(r.Stdout))
	if err != nil || r.Status != 0 {
		t.Fatalf("%v %d\n%s", err, r.Status, r.Stdout)
	}
	path := func(a, b string) (s []string) {
		for _, x := range d.Between(a, b) {
			s = append(s, x.Address+map[bool]string{true: "+", false: "-"}[x.Redirects()])
		}
		return s
	}
	if got := strings.Join(path("0000:1b:00.0", "0000:17:00.0"), " "); got != "0000:15:00.0- 0000:15:01.0-" {
		t.Errorf("sw0 path %q\n%s", got, r.Stdout)
	}
	if got := strings.Join(path("0000:3b:00.0", "0000:37:00.0"), " "); got != "0000:35:00.0+ 0000:35:01.0+" {
		t.Errorf("sw1 path %q", got)
	}
	want := ""
	for _, l := range strings.Split(string(samples.Read(t, "lspci/lspci-vvv-s-amd-gpp-downstream-port-acs-redirect.txt")), "\n") {
		if strings.Contains(l, "ACSCtl:") {
			want = l
		}
	}
	if !strings.Contains(r.Stdout, want+"\n") {
		t.Errorf("ACSCtl line differs from the sample's %q", want)
	}
	if r := simtest.Run(t, Lspci(), n, "-t"); r.Status != 1 {
		t.Errorf("lspci -t: %d", r.Status)
	}
}

// A scenario that moves an HCA to another switch (gds-numa-sys.hcl puts
// mlx5_0 at 17:00.0 on sw1) must not give a bridge the HCA's address:
// real lspci lists each function once, and prova's parser refuses a
// device listed twice.
func TestLspciMovedHCAUniqueAddresses(t *testing.T) {
	n := &model.Node{Name: "gds02", HCAs: []model.HCA{{Name: "mlx5_0", PCI: "0000:17:00.0", PCIeSwitch: "sw1"}, {Name: "mlx5_1", PCI: "0000:37:00.0", PCIeSwitch: "sw1"}},
		GPUs: []model.GPU{{Name: "GPU0", Model: "NVIDIA H100 80GB HBM3", PCIeSwitch: "sw0"}, {Name: "GPU1", Model: "NVIDIA H100 80GB HBM3", PCIeSwitch: "sw0"},
			{Name: "GPU2", Model: "NVIDIA H100 80GB HBM3", PCIeSwitch: "sw1"}}}
	r := simtest.Run(t, Lspci(), n, "-vvv", "-D")
	d, err := lspci.ParseVerbose([]byte(r.Stdout))
	if err != nil || r.Status != 0 {
		t.Fatalf("%v %d\n%s", err, r.Status, r.Stdout)
	}
	if x, ok := d.Find("0000:17:00.0"); !ok || x.Class != "Infiniband controller" {
		t.Errorf("17:00.0 is %+v\n%s", x, r.Stdout)
	}
}
