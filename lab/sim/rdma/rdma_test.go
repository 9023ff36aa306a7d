package rdma

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/provadev/prova/internal/testkit/samples"
	"github.com/provadev/prova/lab/model"
	"github.com/provadev/prova/lab/sim"
	"github.com/provadev/prova/lab/sim/simtest"
)

func noHCA() *model.Node {
	return &model.Node{Name: "n1", Index: 1, CPUs: 2, OFED: "MLNX_OFED_LINUX-23.10-1.1.9.0"}
}

// The no-HCA samples are genuine local captures: same text, same status.
func TestNoHCA(t *testing.T) {
	for _, c := range []struct {
		sample string
		tool   func() (string, []string)
		status int
	}{
		{"ibstat/no-hca-empty-output.txt", func() (string, []string) { return "ibstat", nil }, 0},
		{"ibstat/no-hca-ibstat-l-empty.txt", func() (string, []string) { return "ibstat", []string{"-l"} }, 0},
		{"ibstatus/no-hca-fatal-error.txt", func() (string, []string) { return "ibstatus", nil }, 255},
		{"ibv_devinfo/no-hca-function-not-implemented.txt", func() (string, []string) { return "ibv_devinfo", nil }, 255},
		{"ibv_devinfo/no-hca-ibv_devices.txt", func() (string, []string) { return "ibv_devices", nil }, 1},
		{"rdma-link/no-rdma-netlink.txt", func() (string, []string) { return "rdma", []string{"link", "show"} }, 1},
		{"rdma-link/no-rdma-netlink-json.txt", func() (string, []string) { return "rdma", []string{"-j", "link", "show"} }, 1},
	} {
		name, args := c.tool()
		tools := map[string]sim.Tool{"ibstat": Ibstat(), "ibstatus": Ibstatus(), "ibv_devinfo": IbvDevinfo(),
			"ibv_devices": IbvDevices(), "rdma": RdmaTool()}
		r := simtest.Run(t, tools[name], noHCA(), args...)
		want := simtest.Sample(samples.Read(t, c.sample))
		if got := r.Stdout + r.Stderr; got != want || r.Status != c.status {
			t.Errorf("%s %v: got %q status %d, want %q status %d", name, args, got, r.Status, want, c.status)
		}
	}
}

func TestIbstatusTabsSample(t *testing.T) {
	n := &model.Node{Name: "n1", HCAs: []model.HCA{{Name: "mlx4_0", Ports: []model.Port{
		{Num: 1, State: "Active", PhysState: "LinkUp", Rate: 40, LinkLayer: "InfiniBand", LID: 1, SMLID: 1, GUID: 0xe41d2d0300e4d711},
		{Num: 2, State: "Down", PhysState: "Polling", Rate: 10, LinkLayer: "InfiniBand", GUID: 0xe41d2d0300e4d712},
	}}}}
	r := simtest.Run(t, Ibstatus(), n)
	want := string(samples.Read(t, "ibstatus/ibstatus-mlx4-port1-active-fdr10-port2-down-polling-TABS.txt"))
	if d := cmp.Diff(want, r.Stdout); d != "" || r.Status != 0 {
		t.Errorf("ibstatus (-sample +sim):\n%s", d)
	}
}

func TestIbstatusMixedSample(t *testing.T) {
	port := func(state, phys, ll string, rate, lid, sm int, guid uint64) []model.Port {
		return []model.Port{{Num: 1, State: state, PhysState: phys, Rate: rate, LinkLayer: ll, LID: lid, SMLID: sm, GUID: guid}}
	}
	n := &model.Node{Name: "n1", HCAs: []model.HCA{
		{Name: "mlx5_0", Ports: port("Active", "LinkUp", "Ethernet", 100, 0, 0, 0x0ac0ebfffefe428c)},
		{Name: "mlx5_1", Ports: port("Active", "LinkUp", "InfiniBand", 200, 9, 6, 0x946dae0300fce51c)},
		{Name: "mlx5_2", Ports: port("Down", "Disabled", "Ethernet", 100, 0, 0, 0x0ac0ebfffefe547c)},
		{Name: "mlx5_3", Ports: port("Active", "LinkUp", "InfiniBand", 200, 8, 6, 0x946dae0300fce548)},
	}}
	r := simtest.Run(t, Ibstatus(), n)
	// This sample was copied from a web page: TABs became spaces.
	want := string(samples.Read(t, "ibstatus/ibstatus-4-ports-mixed-roce-ib-one-down-disabled.txt"))
	if d := cmp.Diff(strings.ReplaceAll(want, " ", ""), strings.NewReplacer("\t", "", " ", "").Replace(r.Stdout)); d != "" {
		t.Errorf("ibstatus mixed (-sample +sim, whitespace removed):\n%s", d)
	}
}

func TestIbdev2netdevSamples(t *testing.T) {
	p := func(netdev string, up bool, state string) []model.Port {
		return []model.Port{{Num: 1, State: state, Netdev: netdev, NetdevUp: up}}
	}
	n := &model.Node{Name: "n1", OFED: "x-1", HCAs: []model.HCA{
		{Name: "mlx5_0", Ports: p("ens13np0", true, "Active")}, {Name: "mlx5_1", Ports: p("ib0", true, "Active")},
		{Name: "mlx5_2", Ports: p("ens17np0", false, "Down")}, {Name: "mlx5_3", Ports: p("ib1", true, "Active")},
	}}
	r := simtest.Run(t, Ibdev2netdev(), n)
	if d := cmp.Diff(string(samples.Read(t, "ibdev2netdev/ibdev2netdev-mixed-roce-ib-one-down.txt")), r.Stdout); d != "" {
		t.Errorf("ibdev2netdev (-sample +sim):\n%s", d)
	}
	cx4 := func(name, pci string, vf bool, netdev string, up bool, state string) model.HCA {
		h := model.HCA{Name: name, PCI: pci, CAType: "MT4115", Serial: "MT1523X04353", Board: "CX456A - ConnectX-4 QSFP",
			Firmware: "12.23.1020", Ports: p(netdev, up, state)}
		if vf {
			h.CAType, h.Serial, h.Board = "MT4116", "NA", ""
		}
		return h
	}
	v := &model.Node{Name: "n1", OFED: "x-1", HCAs: []model.HCA{
		cx4("mlx5_0", "0000:02:00.0", false, "ib0", true, "Active"), cx4("mlx5_1", "0000:02:00.1", false, "ib1", false, "Active"),
		cx4("mlx5_2", "0000:02:00.5", true, "ib2", false, "Down"), cx4("mlx5_3", "0000:02:00.6", true, "ib3", false, "Down"),
	}}
	r = simtest.Run(t, Ibdev2netdev(), v, "-v")
	sample := string(samples.Read(t, "ibdev2netdev/ibdev2netdev-and-v-connectx4-sriov-vfs-PARTIAL.txt"))
	want := sample[strings.Index(sample, "0000:02:00.0"):]
	if d := cmp.Diff(want, r.Stdout); d != "" {
		t.Errorf("ibdev2netdev -v (-sample +sim):\n%s", d)
	}
	if !strings.HasPrefix(sample, "# ibdev2netdev\nmlx5_0 port 1 ==> ib0 (Up)\nmlx5_1 port 1 ==> ib1 (Down)\n") {
		t.Fatal("sample changed")
	}
	if r := simtest.Run(t, Ibdev2netdev(), v); r.Stdout != "mlx5_0 port 1 ==> ib0 (Up)\nmlx5_1 port 1 ==> ib1 (Down)\nmlx5_2 port 1 ==> ib2 (Down)\nmlx5_3 port 1 ==> ib3 (Down)\n" {
		t.Errorf("ibdev2netdev plain: %q", r.Stdout)
	}
}

func TestOfedInfo(t *testing.T) {
	sample := string(samples.Read(t, "ofed_info/ofed_info-s-variants-multiple-sources.txt"))
	for _, ver := range []string{"MLNX_OFED_LINUX-4.0-2.0.0.1", "MLNX_OFED_LINUX-23.10-1.1.9.0", "MLNX_OFED_LINUX-5.4-3.1.0.0", "MLNX_OFED_LINUX-5.1-0.6.6.0"} {
		n := &model.Node{Name: "n1", OFED: ver}
		r := simtest.Run(t, OfedInfo(), n, "-s")
		if !strings.Contains(sample, "\n"+r.Stdout) || r.Stdout != ver+":\n" {
			t.Errorf("ofed_info -s = %q, not a line of the sample", r.Stdout)
		}
	}
	n := &model.Node{Name: "n1", OFED: "MLNX_OFED_LINUX-5.4-3.1.0.0"}
	if r := simtest.Run(t, OfedInfo(), n, "-n"); !strings.Contains(sample, "# ofed_info -n\n"+r.Stdout) {
		t.Errorf("ofed_info -n = %q", r.Stdout)
	}
	if r := simtest.Run(t, OfedInfo(), n); !strings.HasPrefix(r.Stdout, "MLNX_OFED_LINUX-5.4-3.1.0.0 (OFED-5.4-3.1.0):\n\n") {
		t.Errorf("ofed_info = %q", r.Stdout)
	}
	if OfedInfo().Installed(&model.Node{}) || !OfedInfo().Installed(n) || Ibdev2netdev().Installed(&model.Node{}) {
		t.Error("OFED tools must be installed exactly where OFED is")
	}
}
