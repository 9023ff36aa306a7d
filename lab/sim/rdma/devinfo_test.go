package rdma

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/provadev/prova/internal/testkit/samples"
	"github.com/provadev/prova/lab/model"
	"github.com/provadev/prova/lab/sim/simtest"
)

func TestIbvDevinfoSamples(t *testing.T) {
	two := &model.Node{Name: "n1", HCAs: []model.HCA{
		{Name: "mlx5_0", Firmware: "20.39.2048", NodeGUID: 0xb8599f0300cae2f8, CAType: "MT4123", BoardID: "MT_0000000223",
			Ports: []model.Port{{Num: 1, State: "Active", LinkLayer: "InfiniBand", SMLID: 1, LID: 4}}},
		{Name: "mlx5_1", Firmware: "22.36.1010", NodeGUID: 0xb8599f0300cae2f9, CAType: "MT4125", BoardID: "MT_0000000437",
			Ports: []model.Port{{Num: 1, State: "Down", LinkLayer: "Ethernet", LID: 65535}}},
	}}
	r := simtest.Run(t, IbvDevinfo(), two)
	if d := cmp.Diff(string(samples.Read(t, "ibv_devinfo/ibv_devinfo-2-hcas-ib-active-eth-down-go-fixture.txt")), r.Stdout); d != "" || r.Status != 0 {
		t.Errorf("ibv_devinfo (-sample +sim):\n%s", d)
	}
	cx6 := &model.Node{Name: "bernie", HCAs: []model.HCA{{Name: "mlx5_0", Firmware: "20.41.1000", NodeGUID: 0xa088c203009605fc,
		CAType: "MT4123", BoardID: "MT_0000000222", Ports: []model.Port{{Num: 1, State: "Active", LinkLayer: "InfiniBand", SMLID: 35, LID: 35}}}}}
	sample := string(samples.Read(t, "ibv_devinfo/ibv_devinfo-cx6-ib-port-active.txt"))
	r = simtest.Run(t, IbvDevinfo(), cx6)
	if d := cmp.Diff(sample[strings.Index(sample, "hca_id"):], r.Stdout); d != "" {
		t.Errorf("ibv_devinfo cx6 (-sample +sim):\n%s", d)
	}
	// -d selects one device; the port section of the older multi-port
	// sample has the same lines as ours.
	r = simtest.Run(t, IbvDevinfo(), two, "-d", "mlx5_1")
	if !strings.HasPrefix(r.Stdout, "hca_id:\tmlx5_1\n") || strings.Contains(r.Stdout, "mlx5_0") {
		t.Errorf("ibv_devinfo -d mlx5_1: %q", r.Stdout)
	}
	if r := simtest.Run(t, IbvDevinfo(), two, "-d", "mlx5_9"); r.Status != 255 {
		t.Errorf("unknown device status %d", r.Status)
	}
	old := string(samples.Read(t, "ibv_devinfo/ibv_devinfo-mlx4-2-hcas-2-ports-port2-down-PARTIAL.txt"))
	port2 := old[strings.Index(old, "\t\tport:\t2"):strings.Index(old, "\nhca_id:\tmlx4_0")]
	mlx4 := &model.Node{Name: "n", HCAs: []model.HCA{{Name: "mlx4_1", CAType: "MT4099", Ports: []model.Port{
		{Num: 1, State: "Active", LinkLayer: "InfiniBand", LID: 22, SMLID: 1}, {Num: 2, State: "Down", LinkLayer: "InfiniBand"}}}}}
	if r := simtest.Run(t, IbvDevinfo(), mlx4); !strings.Contains(r.Stdout, port2) {
		t.Errorf("ibv_devinfo mlx4 port 2 section differs from the sample:\n%s\nwant:\n%s", r.Stdout, port2)
	}
	// The verbose sample's port section starts with the same lines.
	v := string(samples.Read(t, "ibv_devinfo/ibv_devinfo-v-port-section-roce-gids-PARTIAL.txt"))
	roce := &model.Node{Name: "n", HCAs: []model.HCA{{Name: "mlx5_0", Ports: []model.Port{{Num: 1, State: "Active", LinkLayer: "Ethernet"}}}}}
	r = simtest.Run(t, IbvDevinfo(), roce)
	// Its netdev has MTU 9000, so active_mtu is 4096 there.
	ps := r.Stdout[strings.Index(r.Stdout, "\t\tport:"):]
	ps = strings.Replace(ps, "active_mtu:\t\t1024 (3)", "active_mtu:\t\t4096 (5)", 1)
	if !strings.Contains(v, ps) {
		t.Errorf("RoCE port section %q not in the verbose sample", ps)
	}
}

func TestIbvDevicesSamples(t *testing.T) {
	n := &model.Node{Name: "n", HCAs: []model.HCA{{Name: "mlx4_0", NodeGUID: 0x0002c90300b382a0},
		{Name: "irdma0", NodeGUID: 0xae1f6bfffeec331c}, {Name: "irdma1", NodeGUID: 0xae1f6bfffeec331d}}}
	r := simtest.Run(t, IbvDevices(), n)
	sample := string(samples.Read(t, "ibv_devinfo/ibv_devices-mlx4-and-irdma.txt"))
	// Published with TABs expanded; the real tool prints "    %-16s\t".
	if d := cmp.Diff(sample[strings.Index(sample, "\n")+1:], simtest.Expand(r.Stdout)); d != "" {
		t.Errorf("ibv_devices (-sample +sim expanded):\n%s", d)
	}
	rxe := &model.Node{Name: "n", HCAs: []model.HCA{{Name: "rxe0", NodeGUID: 0x020c29fffe55c818}}}
	sample = string(samples.Read(t, "ibv_devinfo/ibv_devinfo-rxe0-softroce.txt"))
	if r := simtest.Run(t, IbvDevices(), rxe); !strings.Contains(sample, r.Stdout) {
		t.Errorf("ibv_devices rxe %q not in the TAB sample", r.Stdout)
	}
}

func TestIbstatSample(t *testing.T) {
	n := &model.Node{Name: "n", HCAs: []model.HCA{{Name: "mlx4_0", CAType: "MT4099", Firmware: "2.42.5000", NodeGUID: 0x0002c90300b382a0,
		Ports: []model.Port{
			{Num: 1, State: "Down", PhysState: "Polling", Rate: 10, LinkLayer: "InfiniBand", GUID: 0x0002c90300b382a1},
			{Num: 2, State: "Active", PhysState: "LinkUp", Rate: 56, LinkLayer: "InfiniBand", LID: 5, SMLID: 1, GUID: 0x0002c90300b382a2},
		}}}}
	r := simtest.Run(t, Ibstat(), n, "mlx4_0")
	sample := string(samples.Read(t, "ibstat/ibstat-mlx4_0-2port-port1-down-polling-port2-active.txt"))
	want := strings.Split(sample[strings.Index(sample, "\n")+1:], "\n")
	got := strings.Split(simtest.Expand(r.Stdout), "\n")
	if len(got) != len(want) {
		t.Fatalf("ibstat: %d lines, sample %d:\n%s", len(got), len(want), r.Stdout)
	}
	// mlx4-specific values (hardware version, system image GUID, capability
	// mask) differ from the simulated mlx5; labels, indentation and the
	// port values must match.
	for i := range want {
		wl, _, _ := strings.Cut(want[i], ": ")
		gl, _, _ := strings.Cut(got[i], ": ")
		if wl != gl {
			t.Errorf("line %d: label %q, sample %q", i+1, gl, wl)
		}
		if strings.Contains(wl, "version") || strings.Contains(wl, "image") || strings.Contains(wl, "mask") {
			continue
		}
		if got[i] != want[i] {
			t.Errorf("line %d: %q, sample %q", i+1, got[i], want[i])
		}
	}
	if r := simtest.Run(t, Ibstat(), n, "-l"); r.Stdout != "mlx4_0\n" {
		t.Errorf("ibstat -l %q", r.Stdout)
	}
	if r := simtest.Run(t, Ibstat(), n, "mlx4_0", "2"); !strings.HasPrefix(r.Stdout, "CA: 'mlx4_0'\nPort 2:\nState: Active\n") {
		t.Errorf("ibstat CA PORT %q", r.Stdout)
	}
	if r := simtest.Run(t, Ibstat(), n, "mlx5_7"); r.Status != 255 || r.Stdout != "" {
		t.Errorf("unknown CA: status %d", r.Status)
	}
}

func TestRdmaLinkSamples(t *testing.T) {
	eth := &model.Node{Name: "n", HCAs: []model.HCA{
		{Name: "mlx5_0", Ports: []model.Port{{Num: 1, State: "Active", PhysState: "LinkUp", LinkLayer: "Ethernet", Netdev: "ens1f0np0"}}},
		{Name: "mlx5_1", Ports: []model.Port{{Num: 1, State: "Down", PhysState: "Disabled", LinkLayer: "Ethernet", Netdev: "ens1f1np1"}}},
	}}
	r := simtest.Run(t, RdmaTool(), eth, "-j", "link", "show")
	if d := cmp.Diff(string(samples.Read(t, "rdma-link/rdma-j-link-show-json-go-fixture.txt")), r.Stdout); d != "" {
		t.Errorf("rdma -j link show (-sample +sim):\n%s", d)
	}
	rxe := &model.Node{Name: "n", HCAs: []model.HCA{
		{Name: "rxe0", Ports: []model.Port{{Num: 1, State: "Active", PhysState: "LinkUp", LinkLayer: "Ethernet", Netdev: "eno12399np0"}}},
		{Name: "rxe1", Ports: []model.Port{{Num: 1, State: "Active", PhysState: "LinkUp", LinkLayer: "Ethernet", Netdev: "ens7f1np1"}}},
	}}
	sample := string(samples.Read(t, "rdma-link/rdma-link-rxe-softroce-mailinglist.txt"))
	if r := simtest.Run(t, RdmaTool(), rxe, "link"); !strings.HasSuffix(sample, "\n\n"+r.Stdout) {
		t.Errorf("rdma link %q is not the sample's listing", r.Stdout)
	}
	bnxt := &model.Node{Name: "n", HCAs: []model.HCA{{Name: "bnxt_re0", Ports: []model.Port{{Num: 1, State: "Active", PhysState: "LinkUp", LinkLayer: "Ethernet", Netdev: "eno12399np0"}}}}}
	sample = string(samples.Read(t, "rdma-link/rdma-link-show-ibm-ceph-doc-bnxt.txt"))
	if r := simtest.Run(t, RdmaTool(), bnxt, "link", "show"); !strings.HasSuffix(sample, "\n"+r.Stdout) {
		t.Errorf("rdma link show %q", r.Stdout)
	}
	// The padded variant (newer iproute2 aligns the name) has the same
	// fields in the same order.
	dgx := string(samples.Read(t, "rdma-link/rdma-link-4-roce-ports-padded-dgx-spark-gx10.txt"))
	for _, l := range strings.Split(strings.TrimSpace(dgx), "\n")[1:] {
		f := strings.Fields(l)
		if len(f) != 8 || f[0] != "link" || f[2] != "state" || f[4] != "physical_state" || f[6] != "netdev" {
			t.Errorf("sample line %q has another shape", l)
		}
	}
	if r := simtest.Run(t, RdmaTool(), eth, "link", "show", "mlx5_1/1"); r.Stdout != "link mlx5_1/1 state DOWN physical_state DISABLED netdev ens1f1np1\n" {
		t.Errorf("rdma link show DEV/PORT %q", r.Stdout)
	}
}
