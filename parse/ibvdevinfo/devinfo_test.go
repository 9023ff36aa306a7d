package ibvdevinfo

import (
	"errors"
	"strings"
	"testing"

	"github.com/provadev/prova/parse"
)

func mustParse(t *testing.T, data []byte) *Result {
	t.Helper()
	res, err := Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func TestParseTwoHCAsIBAndEthernet(t *testing.T) {
	res := mustParse(t, sections(t, "ibv_devinfo/ibv_devinfo-2-hcas-ib-active-eth-down-go-fixture.txt")[0])
	if res.NoDevice || len(res.Devices) != 2 {
		t.Fatalf("got %+v", res)
	}
	d0, d1 := res.Devices[0], res.Devices[1]
	if d0.Name != "mlx5_0" || d0.Firmware != "20.39.2048" || d0.VendorPartID != 4123 || d0.Transport != "InfiniBand" || d0.PhysPortCount != 1 {
		t.Errorf("mlx5_0: %+v", d0)
	}
	p := d0.Ports[0]
	if !p.Active() || p.State != "PORT_ACTIVE" || p.SMLID != 1 || p.PortLID != 4 || p.ActiveMTU != 4096 || p.LinkLayer != "InfiniBand" {
		t.Errorf("mlx5_0 port: %+v", p)
	}
	q := d1.Ports[0]
	if q.Active() || q.State != "PORT_DOWN" || q.StateCode != 1 || q.PortLID != 65535 || q.ActiveMTU != 1024 || q.MaxMTU != 4096 || q.LinkLayer != "Ethernet" {
		t.Errorf("mlx5_1 port: %+v", q)
	}
}

func TestParseCX6(t *testing.T) {
	res := mustParse(t, sections(t, "ibv_devinfo/ibv_devinfo-cx6-ib-port-active.txt")[0])
	if len(res.Devices) != 1 || res.Devices[0].BoardID != "MT_0000000222" || res.Devices[0].Ports[0].PortLID != 35 {
		t.Errorf("got %+v", res)
	}
}

func TestParseOldFormatDevicePortsPartial(t *testing.T) {
	res := mustParse(t, sections(t, "ibv_devinfo/ibv_devinfo-mlx4-2-hcas-2-ports-port2-down-PARTIAL.txt")[0])
	if len(res.Devices) != 2 {
		t.Fatalf("got %+v", res)
	}
	d := res.Devices[0]
	if d.Name != "mlx4_1" || len(d.Ports) != 2 || d.Ports[0].PortLID != 22 || d.Ports[1].State != "PORT_DOWN" || d.Ports[1].Number != 2 {
		t.Errorf("mlx4_1: %+v", d)
	}
	// The sample is cut inside mlx4_0 port 1, before link_layer.
	cut := res.Devices[1].Ports[0]
	if cut.PortLID != 32 || cut.LinkLayer != "" {
		t.Errorf("mlx4_0 port 1: %+v", cut)
	}
}

func TestParseSoftRoCE(t *testing.T) {
	secs := sections(t, "ibv_devinfo/ibv_devinfo-rxe0-softroce.txt")
	if len(secs) != 2 {
		t.Fatalf("want ibv_devices and ibv_devinfo sections, got %d", len(secs))
	}
	res := mustParse(t, secs[1])
	d := res.Devices[0]
	if d.Name != "rxe0" || d.Firmware != "0.0.0" || d.VendorID != "0x0000" || d.BoardID != "" || d.Ports[0].ActiveMTU != 1024 || d.Ports[0].LinkLayer != "Ethernet" {
		t.Errorf("rxe0: %+v", d)
	}
}

func TestParseVerbosePortSection(t *testing.T) {
	// The published excerpt starts inside the device capability list;
	// give it back the hca_id line it lost.
	in := append([]byte("hca_id:\tmlx5_0\n"), sections(t, "ibv_devinfo/ibv_devinfo-v-port-section-roce-gids-PARTIAL.txt")[0]...)
	res := mustParse(t, in)
	d := res.Devices[0]
	if d.Attributes["num_comp_vectors"] != "63" || d.Attributes["max_tso"] != "262144" {
		t.Errorf("device attributes: %v", d.Attributes)
	}
	p := d.Ports[0]
	if p.ActiveWidth != "2X" || p.ActiveSpeed != "50.0 Gbps" || p.PhysState != "LINK_UP" || p.PhysStateCode != 5 || p.LinkLayer != "Ethernet" {
		t.Errorf("port: %+v", p)
	}
	if len(p.GIDs) != 4 || p.GIDs[3] != (GID{Index: 3, GID: "::ffff:27.105.179.3", Type: "RoCE v2"}) || p.GIDs[0].Type != "RoCE v1" {
		t.Errorf("gids: %+v", p.GIDs)
	}
	if p.Attributes["gid_tbl_len"] != "255" || p.Attributes["max_vl_num"] != "invalid value (0)" {
		t.Errorf("port attributes: %v", p.Attributes)
	}
}

func TestParseNoHCA(t *testing.T) {
	res := mustParse(t, sections(t, "ibv_devinfo/no-hca-function-not-implemented.txt")[0])
	if !res.NoDevice || res.Message != "Failed to get IB devices list: Function not implemented" {
		t.Errorf("got %+v", res)
	}
	res = mustParse(t, []byte("No IB devices found\n"))
	if !res.NoDevice {
		t.Errorf("got %+v", res)
	}
}

func TestParseErrors(t *testing.T) {
	good := string(sections(t, "ibv_devinfo/ibv_devinfo-2-hcas-ib-active-eth-down-go-fixture.txt")[0])
	lines := strings.Split(good, "\n")
	for _, c := range []struct {
		line int
		with string
	}{
		{13, "\t\t\tstate:\t\t\tACTIVE"},        // no code
		{17, "\t\t\tport_lid:\t\tfour"},         // not a number
		{16, "\t\t\tsomething odd"},             // not key: value in port section
		{1, "\ttransport:\t\t\tInfiniBand (0)"}, // before hca_id
	} {
		mod := append([]string(nil), lines...)
		mod[c.line-1] = c.with
		_, err := Parse([]byte(strings.Join(mod, "\n")))
		var pe *parse.Error
		if !errors.As(err, &pe) || pe.Tool != "ibv_devinfo" || pe.Line != c.line || pe.Text != c.with {
			t.Errorf("line %d %q: got %v", c.line, c.with, err)
		}
	}
}

func FuzzParse(f *testing.F) {
	for _, rel := range []string{
		"ibv_devinfo/ibv_devinfo-2-hcas-ib-active-eth-down-go-fixture.txt",
		"ibv_devinfo/ibv_devinfo-cx6-ib-port-active.txt",
		"ibv_devinfo/ibv_devinfo-mlx4-2-hcas-2-ports-port2-down-PARTIAL.txt",
		"ibv_devinfo/ibv_devinfo-rxe0-softroce.txt",
		"ibv_devinfo/ibv_devinfo-v-port-section-roce-gids-PARTIAL.txt",
		"ibv_devinfo/no-hca-function-not-implemented.txt",
	} {
		for _, s := range sections(f, rel) {
			f.Add(s)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		res, err := Parse(data)
		checkResult(t, err, res != nil)
	})
}

func checkResult(t *testing.T, err error, haveResult bool) {
	t.Helper()
	if err != nil {
		var pe *parse.Error
		if !errors.As(err, &pe) || pe.Tool == "" || pe.Reason == "" {
			t.Fatalf("error is %T %v, want a complete *parse.Error", err, err)
		}
		return
	}
	if !haveResult {
		t.Fatal("nil result without error")
	}
}
