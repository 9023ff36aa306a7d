package ibstat

import (
	"errors"
	"strings"
	"testing"

	"github.com/provadev/prova/parse"
)

func TestParseStatusFourPorts(t *testing.T) {
	res, err := ParseStatus(sections(t, "ibstatus/ibstatus-4-ports-mixed-roce-ib-one-down-disabled.txt")[0])
	if err != nil {
		t.Fatal(err)
	}
	if res.NoDevice || len(res.Ports) != 4 {
		t.Fatalf("got %+v", res)
	}
	ib := res.Ports[1]
	if ib.Device != "mlx5_1" || ib.Port != 1 || ib.BaseLID != 9 || ib.SMLID != 6 || !ib.Active() || !ib.LinkUp() ||
		ib.Rate != 200 || ib.Width != "4X" || ib.Speed != "HDR" || ib.LinkLayer != "InfiniBand" {
		t.Errorf("mlx5_1: %+v", ib)
	}
	down := res.Ports[2]
	if down.Device != "mlx5_2" || down.State != "DOWN" || down.StateCode != 1 || down.PhysState != "Disabled" ||
		down.PhysStateCode != 3 || down.Active() || down.LinkLayer != "Ethernet" || down.Rate != 100 {
		t.Errorf("mlx5_2: %+v", down)
	}
	if res.Ports[0].DefaultGID != "fe80:0000:0000:0000:0ac0:ebff:fefe:428c" {
		t.Errorf("gid %q", res.Ports[0].DefaultGID)
	}
}

func TestParseStatusTabs(t *testing.T) {
	res, err := ParseStatus(sections(t, "ibstatus/ibstatus-mlx4-port1-active-fdr10-port2-down-polling-TABS.txt")[0])
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Ports) != 2 {
		t.Fatalf("got %+v", res)
	}
	p1, p2 := res.Ports[0], res.Ports[1]
	if p1.Rate != 40 || p1.Speed != "FDR10" || p1.State != "ACTIVE" || p1.BaseLID != 1 {
		t.Errorf("port 1: %+v", p1)
	}
	if p2.Port != 2 || p2.State != "DOWN" || p2.PhysState != "Polling" || p2.Rate != 10 || p2.Width != "4X" || p2.Speed != "" {
		t.Errorf("port 2: %+v", p2)
	}
}

func TestParseStatusNoHCA(t *testing.T) {
	res, err := ParseStatus(sections(t, "ibstatus/no-hca-fatal-error.txt")[0])
	if err != nil {
		t.Fatal(err)
	}
	if !res.NoDevice || res.Message != "Fatal error:  No devices" || len(res.Ports) != 0 {
		t.Errorf("got %+v", res)
	}
	empty, err := ParseStatus(nil)
	if err != nil || !empty.NoDevice {
		t.Errorf("empty output: %+v %v", empty, err)
	}
}

func TestParseStatusErrors(t *testing.T) {
	good := string(sections(t, "ibstatus/ibstatus-mlx4-port1-active-fdr10-port2-down-polling-TABS.txt")[0])
	lines := strings.Split(good, "\n")
	for _, c := range []struct {
		line int
		with string
	}{
		{5, "\tstate:\t\tACTIVE"},
		{7, "\trate:\t\tfast"},
		{12, "garbage"},
		{1, "\tbase lid:\t 0x1"},
	} {
		mod := append([]string(nil), lines...)
		mod[c.line-1] = c.with
		_, err := ParseStatus([]byte(strings.Join(mod, "\n")))
		var pe *parse.Error
		if !errors.As(err, &pe) || pe.Tool != "ibstatus" || pe.Line != c.line {
			t.Errorf("line %d %q: got %v", c.line, c.with, err)
		}
	}
}

func FuzzParseStatus(f *testing.F) {
	for _, rel := range []string{
		"ibstatus/ibstatus-4-ports-mixed-roce-ib-one-down-disabled.txt",
		"ibstatus/ibstatus-mlx4-port1-active-fdr10-port2-down-polling-TABS.txt",
		"ibstatus/no-hca-fatal-error.txt",
	} {
		f.Add(sections(f, rel)[0])
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		res, err := ParseStatus(data)
		checkResult(t, err, res != nil)
	})
}
