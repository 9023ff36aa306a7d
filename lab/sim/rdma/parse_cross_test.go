package rdma

import (
	"strings"
	"testing"

	"github.com/provadev/prova/internal/testkit/samples"
	"github.com/provadev/prova/lab/model"
	"github.com/provadev/prova/lab/sim/simtest"
	"github.com/provadev/prova/parse/iproute2"
)

// ip -o addr prints lo and one line per up HCA netdev in the layout of
// the real samples, and reads back through prova's parser with the
// addresses of model.PortAddress.
func TestIPAddr(t *testing.T) {
	n := &model.Node{Name: "gds01", DataAddress: "10.10.0.1", HCAs: []model.HCA{
		{Name: "mlx5_0", Ports: []model.Port{{Num: 1, Netdev: "ib0", NetdevUp: true, State: "Active"}}},
		{Name: "mlx5_1", Ports: []model.Port{{Num: 1, Netdev: "ib1", NetdevUp: true, State: "Active"}}},
		{Name: "mlx5_2", Ports: []model.Port{{Num: 1, Netdev: "ib2", State: "Down"}}}}}
	r := simtest.Run(t, IP(), n, "-o", "-4", "addr", "show")
	lines := strings.Split(strings.TrimSuffix(r.Stdout, "\n"), "\n")
	want := strings.Split(strings.TrimSuffix(string(samples.Strip(samples.Read(t, "iproute2/ip-o-4-addr-show-eth0-local.txt"))), "\n"), "\n")
	if r.Status != 0 || len(lines) != 3 || lines[0] != want[0] {
		t.Fatalf("status %d lines %q (lo of the sample: %q)", r.Status, lines, want[0])
	}
	if lines[1] != `2: ib0    inet 10.10.0.1/16 brd 10.10.255.255 scope global ib0\       valid_lft forever preferred_lft forever` {
		t.Errorf("ib0 %q", lines[1])
	}
	a, err := iproute2.ParseAddr([]byte(r.Stdout))
	if err != nil || a.Interface("10.11.0.1") != "ib1" || a.Interface("10.12.0.1") != "" {
		t.Errorf("parsed %v %+v", err, a)
	}
	if r := simtest.Run(t, IP(), n, "link", "show"); r.Status != 255 || !strings.Contains(r.Stderr, "simulates only") {
		t.Errorf("ip link: %d %q", r.Status, r.Stderr)
	}
}
