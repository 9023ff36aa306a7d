package rdmalink

import (
	"errors"
	"testing"

	"github.com/provadev/prova/parse"
)

func last(secs [][]byte) []byte { return secs[len(secs)-1] }

func TestParseJSONFixture(t *testing.T) {
	res, err := Parse(last(sections(t, "rdma-link/rdma-j-link-show-json-go-fixture.txt")))
	if err != nil {
		t.Fatal(err)
	}
	if res.NoDevice || len(res.Links) != 2 {
		t.Fatalf("got %+v", res)
	}
	want := Link{Device: "mlx5_1", Port: 1, IfIndex: 1, State: "DOWN", PhysicalState: "DISABLED", Netdev: "ens1f1np1"}
	if got, _ := res.Link("mlx5_1", 1); got != want {
		t.Errorf("mlx5_1:\n got %+v\nwant %+v", got, want)
	}
	if l, _ := res.Link("mlx5_0", 1); !l.Active() || !l.LinkUp() || l.Netdev != "ens1f0np0" {
		t.Errorf("mlx5_0: %+v", l)
	}
}

func TestParseTextPadded(t *testing.T) {
	res, err := Parse(last(sections(t, "rdma-link/rdma-link-4-roce-ports-padded-dgx-spark-gx10.txt")))
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Links) != 4 {
		t.Fatalf("got %+v", res)
	}
	l, ok := res.Link("roceP2p1s0f1", 1)
	if !ok || l.Netdev != "enP2p1s0f1np1" || !l.Active() || !l.LinkUp() {
		t.Errorf("got %+v", l)
	}
}

func TestParseTextSoftRoCEAndBnxt(t *testing.T) {
	res, err := Parse(last(sections(t, "rdma-link/rdma-link-rxe-softroce-mailinglist.txt")))
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Links) != 2 || res.Links[1].Device != "rxe1" || res.Links[1].Netdev != "ens7f1np1" {
		t.Errorf("rxe: %+v", res)
	}
	res, err = Parse(last(sections(t, "rdma-link/rdma-link-show-ibm-ceph-doc-bnxt.txt")))
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Links) != 1 || res.Links[0].Device != "bnxt_re0" || res.Links[0].Netdev != "eno12399np0" {
		t.Errorf("bnxt: %+v", res)
	}
}

func TestParseTextInfiniBandPort(t *testing.T) {
	in := "link mlx5_0/1 subnet_prefix fe80:0000:0000:0000 lid 4 sm_lid 1 lmc 0 state ACTIVE physical_state LINK_UP \n" +
		"    caps: <CM>\n"
	res, err := Parse([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	want := Link{Device: "mlx5_0", Port: 1, SubnetPrefix: "fe80:0000:0000:0000", LID: 4, SMLID: 1, State: "ACTIVE", PhysicalState: "LINK_UP"}
	if len(res.Links) != 1 || res.Links[0] != want {
		t.Errorf("got %+v", res)
	}
}

func TestParseNoRDMA(t *testing.T) {
	for _, rel := range []string{"rdma-link/no-rdma-netlink.txt", "rdma-link/no-rdma-netlink-json.txt"} {
		for name, fn := range map[string]func([]byte) (*Result, error){"Parse": Parse, "ParseJSON": ParseJSON, "ParseText": ParseText} {
			res, err := fn(last(sections(t, rel)))
			if err != nil {
				t.Fatalf("%s %s: %v", name, rel, err)
			}
			if !res.NoDevice || res.Message != "Failed to open NETLINK_RDMA socket" {
				t.Errorf("%s %s: got %+v", name, rel, res)
			}
		}
	}
	res, err := Parse(nil)
	if err != nil || !res.NoDevice {
		t.Errorf("empty: %+v %v", res, err)
	}
}

func TestParseErrors(t *testing.T) {
	cases := []struct {
		in   string
		tool string
		line int
	}{
		{"link rxe0/1 state ACTIVE physical_state LINK_UP netdev eno1\nbogus line here\n", "rdma link show", 2},
		{"link rxe0 state ACTIVE\n", "rdma link show", 1},
		{"link rxe0/1 state ACTIVE lid x\n", "rdma link show", 1},
		{"link rxe0/1 state\n", "rdma link show", 1},
		{"[{\"ifname\":\"mlx5_0\",\n\"port\":\"one\"}]", "rdma -j link show", 2},
		{"[{\"ifname\":\"mlx5_0\"", "rdma -j link show", 1},
	}
	for _, c := range cases {
		_, err := Parse([]byte(c.in))
		var pe *parse.Error
		if !errors.As(err, &pe) || pe.Tool != c.tool || pe.Line != c.line {
			t.Errorf("%q: got %v", c.in, err)
		}
	}
}

func FuzzParse(f *testing.F) {
	for _, rel := range []string{
		"rdma-link/rdma-j-link-show-json-go-fixture.txt",
		"rdma-link/rdma-link-4-roce-ports-padded-dgx-spark-gx10.txt",
		"rdma-link/rdma-link-rxe-softroce-mailinglist.txt",
		"rdma-link/rdma-link-show-ibm-ceph-doc-bnxt.txt",
		"rdma-link/no-rdma-netlink.txt",
	} {
		f.Add(last(sections(f, rel)))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		res, err := Parse(data)
		if err != nil {
			var pe *parse.Error
			if !errors.As(err, &pe) || pe.Tool == "" || pe.Reason == "" {
				t.Fatalf("error %T %v", err, err)
			}
			return
		}
		if res == nil {
			t.Fatal("nil result without error")
		}
	})
}

// Older iproute2 releases print "<ifindex>/<port>: <dev>/<port>: ...".
func TestOlderIproute2Sample(t *testing.T) {
	r, err := Parse(last(sections(t, "rdma-link/rdma-link-older-iproute2-index-prefix-i40iw-mlx5.txt")))
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Links) != 4 || r.NoDevice {
		t.Fatalf("%+v", r)
	}
	if l := r.Links[0]; l.Device != "i40iw0" || l.Port != 1 || l.State != "DOWN" || l.PhysicalState != "NOP" || l.Netdev != "" {
		t.Errorf("link 0 = %+v", l)
	}
	if l := r.Links[3]; l.Device != "mlx5_1" || l.State != "ACTIVE" || l.PhysicalState != "LINK_UP" || l.Netdev != "ens803f1" {
		t.Errorf("link 3 = %+v", l)
	}
}
