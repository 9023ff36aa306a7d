package ibdev2netdev

import (
	"errors"
	"testing"

	"github.com/provadev/prova/parse"
)

func TestParseMixedRoCEAndIB(t *testing.T) {
	res, err := Parse(sections(t, "ibdev2netdev/ibdev2netdev-mixed-roce-ib-one-down.txt")[0])
	if err != nil {
		t.Fatal(err)
	}
	if res.NoDevice || len(res.Mappings) != 4 {
		t.Fatalf("got %+v", res)
	}
	m, ok := res.Netdev("mlx5_2", 1)
	if !ok || m.Netdev != "ens17np0" || m.NetdevState != "Down" || m.Up() || m.Verbose {
		t.Errorf("mlx5_2: %+v", m)
	}
	if m, _ := res.Netdev("mlx5_1", 1); m.Netdev != "ib0" || !m.Up() {
		t.Errorf("mlx5_1: %+v", m)
	}
}

func TestParsePlainAndVerboseSRIOV(t *testing.T) {
	secs := sections(t, "ibdev2netdev/ibdev2netdev-and-v-connectx4-sriov-vfs-PARTIAL.txt")
	// prompts: "# ibdev2netdev", "# echo 4 > ...", "# ibdev2netdev -v"
	if len(secs) != 3 {
		t.Fatalf("want 3 sections, got %d", len(secs))
	}
	plain, err := Parse(secs[0])
	if err != nil {
		t.Fatal(err)
	}
	if m, _ := plain.Netdev("mlx5_1", 1); m.Netdev != "ib1" || m.NetdevState != "Down" {
		t.Errorf("plain mlx5_1: %+v", m)
	}
	v, err := Parse(secs[2])
	if err != nil {
		t.Fatal(err)
	}
	if len(v.Mappings) != 4 {
		t.Fatalf("verbose: %+v", v)
	}
	pf := v.Mappings[1]
	want := Mapping{Device: "mlx5_1", Port: 1, Netdev: "ib1", NetdevState: "Down", Verbose: true, PCI: "0000:02:00.1",
		DeviceID: "MT4115", PartID: "MT1523X04353", Board: "CX456A - ConnectX-4 QSFP", Firmware: "12.23.1020", PortState: "ACTIVE"}
	if pf != want {
		t.Errorf("PF:\n got %+v\nwant %+v", pf, want)
	}
	vf := v.Mappings[2]
	if vf.DeviceID != "MT4116" || vf.PartID != "NA" || vf.Board != "" || vf.PortState != "DOWN" || vf.Netdev != "ib2" || vf.PCI != "0000:02:00.5" {
		t.Errorf("VF: %+v", vf)
	}
}

func TestParseEmptyIsNoDevice(t *testing.T) {
	res, err := Parse([]byte("\n"))
	if err != nil || !res.NoDevice {
		t.Errorf("got %+v %v", res, err)
	}
}

func TestParseGarbageLine(t *testing.T) {
	in := "mlx5_0 port 1 ==> ens13np0 (Up)\nmlx5_1 port one ==> ib0 (Up)\n"
	_, err := Parse([]byte(in))
	var pe *parse.Error
	if !errors.As(err, &pe) || pe.Tool != "ibdev2netdev" || pe.Line != 2 || pe.Text != "mlx5_1 port one ==> ib0 (Up)" {
		t.Errorf("got %v", err)
	}
}

func FuzzParse(f *testing.F) {
	for _, rel := range []string{
		"ibdev2netdev/ibdev2netdev-mixed-roce-ib-one-down.txt",
		"ibdev2netdev/ibdev2netdev-and-v-connectx4-sriov-vfs-PARTIAL.txt",
	} {
		for _, s := range sections(f, rel) {
			f.Add(s)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		res, err := Parse(data)
		if err != nil {
			var pe *parse.Error
			if !errors.As(err, &pe) {
				t.Fatalf("error is %T: %v", err, err)
			}
			return
		}
		if res == nil {
			t.Fatal("nil result without error")
		}
	})
}
