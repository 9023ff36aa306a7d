package nvme

import (
	"testing"

	pnvme "github.com/provadev/prova/parse/nvme"
)

// Cross-check: prova's nvme-cli parsers read every output of the simulator,
// text and JSON, with the values the simulator meant.
func TestParsersReadSimulatorOutput(t *testing.T) {
	for _, tr := range []string{"tcp", "rdma"} {
		s := newShell(t, node())
		for _, format := range []string{"normal", "json"} {
			r := s.run("discover", "-t", tr, "-a", "10.10.0.100", "-s", "4420", "-o", format)
			d, err := pnvme.ParseDiscover([]byte(r.Stdout))
			if err != nil {
				t.Fatalf("discover %s %s: %v\n%s", tr, format, err, r.Stdout)
			}
			subs := d.Subsystems()
			if len(d.Records) != 2 || len(subs) != 1 || subs[0].Subnqn != nqn || subs[0].Trtype != tr || subs[0].Traddr != "10.10.0.100" {
				t.Errorf("discover %s %s: %+v", tr, format, d)
			}
		}
		c, err := pnvme.ParseConnect([]byte(s.run("connect", "-t", tr, "-a", "10.10.0.100", "-n", nqn).Stdout))
		if err != nil || len(c.Devices) != 1 || c.Devices[0] != "nvme1" {
			t.Errorf("connect %s: %+v %v", tr, c, err)
		}
		again := s.run("connect", "-t", tr, "-a", "10.10.0.100", "-n", nqn)
		if f := pnvme.ClassifyError(again.Stderr, again.Status); f == nil || f.Kind != pnvme.AlreadyConnected {
			t.Errorf("second connect %s classified %+v", tr, f)
		}
		for _, format := range []string{"normal", "json"} {
			l, err := pnvme.ParseList([]byte(s.run("list", "-o", format).Stdout))
			if err != nil || len(l.Devices) != 2 {
				t.Fatalf("list %s: %+v %v", format, l, err)
			}
			dev := l.Devices[1]
			if dev.DevicePath != "/dev/nvme1n1" || dev.Model != "Linux" || dev.Namespace != 1 || dev.SizeBytes < 3_830_000_000_000 || dev.SizeBytes > 3_850_000_000_000 {
				t.Errorf("list %s: %+v", format, dev)
			}
			ls, err := pnvme.ParseListSubsys([]byte(s.run("list-subsys", "-o", format).Stdout))
			if err != nil {
				t.Fatalf("list-subsys %s: %v", format, err)
			}
			if got := ls.Transports(nqn); len(got) != 1 || got[0] != tr {
				t.Errorf("list-subsys %s transports %v", format, got)
			}
			p := ls.Find(nqn)[0].Paths[0]
			if p.Name != "nvme1" || p.Traddr != "10.10.0.100" || p.Trsvcid != "4420" || p.State != "live" {
				t.Errorf("list-subsys %s path %+v", format, p)
			}
			if tr == "tcp" && p.SrcAddr != "10.10.0.3" {
				t.Errorf("tcp src_addr %q", p.SrcAddr)
			}
		}
		d, err := pnvme.ParseDisconnect([]byte(s.run("disconnect", "-n", nqn).Stdout))
		if err != nil || d.NQN != nqn || d.Controllers != 1 {
			t.Errorf("disconnect: %+v %v", d, err)
		}
	}
	v, err := pnvme.ParseVersion([]byte(newShell(t, node()).run("version").Stdout))
	if err != nil || v.Version != "2.3" || v.Libnvme != "1.3" || v.Major != 2 {
		t.Errorf("version: %+v %v", v, err)
	}
	// Failures are classified as the operator would read them.
	for _, c := range []struct {
		transports []string
		tr         string
		kind       pnvme.Kind
	}{{[]string{"tcp"}, "rdma", pnvme.ConnectionReset}, {[]string{"rdma"}, "tcp", pnvme.ConnectionRefused}} {
		n := node()
		n.NVMeoF.Transports = c.transports
		r := newShell(t, n).run("connect", "-t", c.tr, "-a", "10.10.0.100", "-n", nqn)
		if f := pnvme.ClassifyError(r.Stderr, r.Status); f == nil || f.Kind != c.kind {
			t.Errorf("%s not offered classified %+v", c.tr, f)
		}
	}
}
