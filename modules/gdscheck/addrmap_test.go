package gdscheck

import (
	"strings"
	"testing"

	"github.com/provadev/prova/engine/module/moduletest"
	"github.com/provadev/prova/internal/testkit/samples"
)

// Issue 19.7: the NICs cuFile will use are the RDMA ports that hold the
// addresses of rdma_dev_addr_list (ip -o addr show, then ibdev2netdev);
// an address on a plain Ethernet netdev or on no interface is named.
func TestRDMADevices(t *testing.T) {
	def := string(samples.Read(t, sCufile))
	list := strings.Replace(def, `"rdma_dev_addr_list": [],`, `"rdma_dev_addr_list": ["10.0.0.207", "192.0.2.2", "10.9.9.9"],`, 1)
	ip := string(samples.Strip(samples.Read(t, "iproute2/ip-o-4-addr-ipoib-ib0.txt"))) +
		"4: eth0    inet 192.0.2.2/24 brd 192.0.2.255 scope global eth0\\       valid_lft forever preferred_lft forever\n"
	ib := "mlx5_0 port 1 ==> ib0 (Up)\nmlx5_1 port 1 ==> ib1 (Up)\n"
	resp, o := run(t, `filesystem = "gpfs"`, moduletest.Reply{Stdout: toolOutput(t, s116)}, cufile(list),
		func(h *moduletest.FakeHost) {
			h.Reply(`^ip -o addr show$`, moduletest.Reply{Stdout: ip})
			h.Reply(`^ibdev2netdev$`, moduletest.Reply{Stdout: ib})
		})
	if got := strings.Join(strs(o["rdma_devices"]), ","); got != "mlx5_0/1" {
		t.Errorf("rdma_devices = %q", got)
	}
	want := "192.0.2.2: on eth0, not an RDMA netdev|10.9.9.9: on no interface of gpu01"
	if got := strings.Join(strs(o["rdma_addr_unmapped"]), "|"); got != want {
		t.Errorf("unmapped = %q, want %q", got, want)
	}
	if resp.Evidence["ip -o addr show"] != ip || resp.Evidence["ibdev2netdev"] != ib {
		t.Error("ip and ibdev2netdev outputs are not kept as evidence")
	}
	// Without ibdev2netdev (no MLNX_OFED) the addresses stay unmapped, with
	// the reason; nothing is guessed.
	_, o = run(t, `filesystem = "gpfs"`, moduletest.Reply{Stdout: toolOutput(t, s116)}, cufile(list),
		func(h *moduletest.FakeHost) {
			h.Reply(`^ip -o addr show$`, moduletest.Reply{Stdout: ip})
			h.Reply(`^ibdev2netdev$`, moduletest.Reply{RC: 127, Stderr: "sh: 1: ibdev2netdev: not found\n"})
		})
	if len(strs(o["rdma_devices"])) != 0 || !strings.Contains(strings.Join(strs(o["rdma_addr_unmapped"]), "|"), "10.0.0.207: on ib0, but ibdev2netdev failed: sh: 1: ibdev2netdev: not found") {
		t.Errorf("no ibdev2netdev: %v %v", o["rdma_devices"], o["rdma_addr_unmapped"])
	}
	// An empty list runs neither command.
	_, o = run(t, `filesystem = "gpfs"`, moduletest.Reply{Stdout: toolOutput(t, s116)}, cufile(def))
	if len(strs(o["rdma_devices"])) != 0 || len(strs(o["rdma_addr_unmapped"])) != 0 {
		t.Errorf("empty list: %v", o)
	}
}
