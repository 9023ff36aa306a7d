package ibstat

import (
	"errors"
	"strings"
	"testing"

	"github.com/provadev/prova/parse"
)

func TestParseTwoPortsOneDown(t *testing.T) {
	secs := sections(t, "ibstat/ibstat-mlx4_0-2port-port1-down-polling-port2-active.txt")
	res, err := Parse(secs[0])
	if err != nil {
		t.Fatal(err)
	}
	if res.NoDevice || len(res.CAs) != 1 {
		t.Fatalf("want one CA, got %+v", res)
	}
	ca := res.CAs[0]
	if ca.Name != "mlx4_0" || ca.Type != "MT4099" || ca.Firmware != "2.42.5000" || ca.NumPorts != 2 || ca.NodeGUID != "0x0002c90300b382a0" {
		t.Errorf("CA fields: %+v", ca)
	}
	p1, ok := res.Port("mlx4_0", 1)
	if !ok || p1.State != "Down" || p1.PhysicalState != "Polling" || p1.Rate != 10 || p1.BaseLID != 0 || p1.Active() || p1.LinkUp() {
		t.Errorf("port 1: %+v", p1)
	}
	p2, ok := res.Port("mlx4_0", 2)
	if !ok || !p2.Active() || !p2.LinkUp() || p2.Rate != 56 || p2.BaseLID != 5 || p2.SMLID != 1 ||
		p2.PortGUID != "0x0002c90300b382a2" || p2.LinkLayer != "InfiniBand" || p2.CapabilityMask != "0x0259486a" {
		t.Errorf("port 2: %+v", p2)
	}
	if got := len(res.Ports()); got != 2 {
		t.Errorf("Ports(): %d", got)
	}
}

func TestParseNoHCA(t *testing.T) {
	for _, rel := range []string{"ibstat/no-hca-empty-output.txt", "ibstat/no-hca-ibstat-l-empty.txt"} {
		res, err := Parse(sections(t, rel)[0])
		if err != nil {
			t.Fatalf("%s: %v", rel, err)
		}
		if !res.NoDevice || len(res.CAs) != 0 {
			t.Errorf("%s: want NoDevice, got %+v", rel, res)
		}
	}
}

// ibnetdiscover shares the umad library with ibstat; its ibwarn lines are
// what ibstat prints when a named CA cannot be opened.
func TestParseDiagnosticsOnly(t *testing.T) {
	in := []byte("ibwarn: [12605] mad_rpc_open_port: can't open UMAD port ((null):0)\n" +
		"ibpanic: [3] main: stat of IB device 'mlx5_9' failed: No such file or directory\n")
	res, err := Parse(in)
	if err != nil {
		t.Fatal(err)
	}
	if !res.NoDevice || !strings.Contains(res.Message, "mlx5_9") {
		t.Errorf("got %+v", res)
	}
}

func TestParseSinglePortForm(t *testing.T) {
	in := "CA: 'mlx5_0'\nPort 1:\nState: Active\nPhysical state: LinkUp\nRate: 40 (FDR10)\nBase lid: 3\nLMC: 0\nSM lid: 1\n" +
		"Capability mask: 0x2651e848\nPort GUID: 0x0002c9030032d3c1\nLink layer: InfiniBand\n"
	res, err := Parse([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	p, ok := res.Port("mlx5_0", 1)
	if !ok || p.Rate != 40 || p.RateNote != "FDR10" || !p.Active() || p.BaseLID != 3 {
		t.Errorf("got %+v", res)
	}
}

func TestParseErrors(t *testing.T) {
	good := string(sections(t, "ibstat/ibstat-mlx4_0-2port-port1-down-polling-port2-active.txt")[0])
	lines := strings.Split(good, "\n")
	cases := []struct {
		name string
		line int // 1-based line to replace
		with string
	}{
		{"garbage in port block", 12, "                this is not ibstat"},
		{"rate not a number", 11, "                Rate: fast"},
		{"lid not a number", 21, "                Base lid: five"},
		{"text before CA", 1, "hello"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			mod := append([]string(nil), lines...)
			mod[c.line-1] = c.with
			_, err := Parse([]byte(strings.Join(mod, "\n")))
			var pe *parse.Error
			if !errors.As(err, &pe) {
				t.Fatalf("want *parse.Error, got %v", err)
			}
			if pe.Tool != "ibstat" || pe.Line != c.line || pe.Text != c.with {
				t.Errorf("got %+v", pe)
			}
		})
	}
}

func FuzzParse(f *testing.F) {
	for _, rel := range []string{
		"ibstat/ibstat-mlx4_0-2port-port1-down-polling-port2-active.txt",
		"ibstat/no-hca-empty-output.txt", "ibstat/no-hca-ibnetdiscover.txt",
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

// checkResult is the fuzz property: either a result or a *parse.Error.
func checkResult(t *testing.T, err error, haveResult bool) {
	t.Helper()
	if err != nil {
		var pe *parse.Error
		if !errors.As(err, &pe) {
			t.Fatalf("error is %T, want *parse.Error: %v", err, err)
		}
		if pe.Tool == "" || pe.Reason == "" {
			t.Fatalf("incomplete error %+v", pe)
		}
		return
	}
	if !haveResult {
		t.Fatal("nil result without error")
	}
}
