package lspci

import (
	"errors"
	"strings"
	"testing"

	"github.com/provadev/prova/internal/testkit/parsecheck"
	"github.com/provadev/prova/internal/testkit/samples"
	"github.com/provadev/prova/parse"
)

const sample = "lspci/lspci-vvv-s-amd-gpp-downstream-port-acs-redirect.txt"

func TestSample(t *testing.T) {
	r, err := ParseVerbose(samples.Strip(samples.Read(t, sample)))
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Devices) != 1 {
		t.Fatalf("devices %+v", r.Devices)
	}
	d := r.Devices[0]
	if d.Address != "0000:03:02.0" || d.Class != "PCI bridge" || !strings.HasPrefix(d.Description, "Advanced Micro Devices") ||
		*d.Secondary != 6 || *d.Subordinate != 6 || d.Bus() != 3 || !d.Redirects() || !d.ACSCtl["SrcValid"] || d.ACSCtl["TransBlk"] || len(d.ACSCtl) != 7 {
		t.Errorf("bridge %+v", d)
	}
}

// tree is a PCIe switch (upstream port 16:00.0, downstream ports 17:00.0
// and 17:01.0) under root port 15:01.0, with a GPU and a NIC below it, in
// the lspci -vvv -D layout (blocks trimmed to the lines read).
func tree(acs string) string {
	return "0000:15:01.0 PCI bridge: Intel Corporation Device 352a (rev 04) (prog-if 00 [Normal decode])\n\tBus: primary=15, secondary=16, subordinate=19, sec-latency=0\n\n" +
		"0000:16:00.0 PCI bridge: Broadcom / LSI PEX890xx PCIe Gen 5 Switch (rev b0) (prog-if 00 [Normal decode])\n\tBus: primary=16, secondary=17, subordinate=19, sec-latency=0\n\n" +
		"0000:17:00.0 PCI bridge: Broadcom / LSI PEX890xx PCIe Gen 5 Switch (rev b0) (prog-if 00 [Normal decode])\n\tBus: primary=17, secondary=18, subordinate=18, sec-latency=0\n" +
		"\tCapabilities: [2a0 v1] Access Control Services\n\t\tACSCap:\tSrcValid+ TransBlk+ ReqRedir+ CmpltRedir+ UpstreamFwd+ EgressCtrl- DirectTrans+\n\t\tACSCtl:\t" + acs + "\n\n" +
		"0000:17:01.0 PCI bridge: Broadcom / LSI PEX890xx PCIe Gen 5 Switch (rev b0) (prog-if 00 [Normal decode])\n\tBus: primary=17, secondary=19, subordinate=19, sec-latency=0\n\n" +
		"0000:18:00.0 3D controller: NVIDIA Corporation GH100 [H100 SXM5 80GB] (rev a1)\n\tSubsystem: NVIDIA Corporation Device 16c1\n\n" +
		"0000:19:00.0 Infiniband controller: Mellanox Technologies MT2910 Family [ConnectX-7]\n\tSubsystem: Mellanox Technologies Device 0070\n"
}

func TestBetween(t *testing.T) {
	on := "SrcValid+ TransBlk- ReqRedir+ CmpltRedir+ UpstreamFwd+ EgressCtrl- DirectTrans-"
	r, err := ParseVerbose([]byte(tree(on)))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range r.Between("18:00.0", "00000000:19:00.0") {
		got = append(got, d.Address)
	}
	if strings.Join(got, " ") != "0000:17:00.0 0000:17:01.0" {
		t.Errorf("between = %v", got)
	}
	if a := r.Ancestors("0000:18:00.0"); len(a) != 3 || !a[2].Redirects() {
		t.Errorf("ancestors %+v", a)
	}
	off := strings.ReplaceAll(on, "+", "-")
	r, _ = ParseVerbose([]byte(tree(off)))
	for _, d := range r.Between("18:00.0", "19:00.0") {
		if d.Redirects() {
			t.Errorf("%s redirects with ACS off", d.Address)
		}
	}
	denied := "00:01.0 PCI bridge: Intel Corporation Device 352a\n\tCapabilities: <access denied>\n"
	if r, err := ParseVerbose([]byte(denied)); err != nil || !r.Devices[0].CapabilitiesDenied || r.Devices[0].Address != "0000:00:01.0" {
		t.Errorf("denied: %v %+v", err, r)
	}
}

func TestUnexpected(t *testing.T) {
	for _, in := range []string{"pcilib: Cannot open /proc/bus/pci\n", "\tBus: primary=00\n", tree("SrcValid? ReqRedir+")} {
		_, err := ParseVerbose([]byte(in))
		var pe *parse.Error
		if !errors.As(err, &pe) || pe.Tool != "lspci -vvv" || pe.Line == 0 {
			t.Errorf("%q: %v", in[:10], err)
		}
	}
}

// Nothing printed and a device listed twice are errors, not an empty or
// doubled list.
func TestEmptyAndTwice(t *testing.T) {
	one := tree("SrcValid+ ReqRedir-")
	n := strings.Count(one, "\n")
	for in, line := range map[string]int{"": 0, "\n  \n": 0, one + one: n + 1} {
		_, err := ParseVerbose([]byte(in))
		var pe *parse.Error
		if !errors.As(err, &pe) || pe.Tool != "lspci -vvv" || pe.Line != line {
			t.Errorf("%q: %v, want an error at line %d", in, err, line)
		}
	}
}

func FuzzParseVerbose(f *testing.F) {
	f.Add(samples.Strip(samples.Read(f, sample)))
	f.Add([]byte(tree("SrcValid+ ReqRedir+")))
	parsecheck.Fuzz(f, parse.Typed(ParseVerbose))
}
