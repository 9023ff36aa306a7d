package nvme

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/provadev/prova/internal/testkit/samples"
	"github.com/provadev/prova/lab/model"
	"github.com/provadev/prova/lab/sim/simtest"
)

const nqn = model.DefaultTargetNQN

func TestVersionIsTheSample(t *testing.T) {
	r := simtest.Run(t, Tool(), node(), "version")
	want := simtest.Sample(samples.Read(t, "nvme-cli/nvme-version-2.3.txt"))
	if r.Stdout != want || r.Status != 0 {
		t.Errorf("got %q status %d, want %q", r.Stdout, r.Status, want)
	}
}

// The list table's header, dashes and a fabric row are byte for byte the
// nvme-cli 2.x sample.
func TestListFormatIsTheSample(t *testing.T) {
	lines := strings.Split(string(samples.Read(t, "nvme-cli/connect-list-listsubsys-tcp-2.x-mikrotik.txt")), "\n")
	if got := listHeader + listDashes; got != lines[1]+"\n"+lines[2]+"\n" {
		t.Errorf("header:\n%s", cmp.Diff(lines[1]+"\n"+lines[2]+"\n", got))
	}
	row := listRow("/dev/nvme1n1", "/dev/ng1n1", "f132ac7914cdb3dc", "Linux", 1, 1_100_000_000_000, 1_100_000_000_000, "5.6.3")
	if row != lines[4]+"\n" {
		t.Errorf("row:\n%s", cmp.Diff(lines[4]+"\n", row))
	}
	local := listRow("/dev/nvme0n1", "/dev/ng0n1", "PHMB751300WU480DGN", "INTEL SSDPED1D480GA", 1, 480_103_981_056, 480_103_981_056, "E2010650")
	if local != lines[3]+"\n" {
		t.Errorf("row:\n%s", cmp.Diff(lines[3]+"\n", local))
	}
}

func TestConnectCycleTCPAndRDMA(t *testing.T) {
	for _, tr := range []string{"tcp", "rdma"} {
		t.Run(tr, func(t *testing.T) {
			s := newShell(t, node())
			s.touchLocal("nvme0", "nvme0n1")
			r := s.run("discover", "-t", tr, "-a", "10.10.0.100", "-s", "4420")
			if r.Status != 0 || !strings.Contains(r.Stdout, "subnqn:  "+nqn) || !strings.Contains(r.Stdout, "trtype:  "+tr) {
				t.Fatalf("discover: %+v", r)
			}
			r = s.run("connect", "-t", tr, "-a", "10.10.0.100", "-s", "4420", "-n", nqn)
			if r.Status != 0 || r.Stdout != "connecting to device: nvme1\n" {
				t.Fatalf("connect: %+v", r)
			}
			if got := s.dev(); got != "nvme0 nvme0n1 nvme1 nvme1n1" {
				t.Errorf("/dev after connect: %s", got)
			}
			r = s.run("connect", "--transport="+tr, "--traddr", "10.10.0.100", "-n", nqn)
			if r.Status != 1 || r.Stderr != "already connected\n" {
				t.Errorf("second connect: %+v", r)
			}
			r = s.run("list")
			if !strings.Contains(r.Stdout, "/dev/nvme1n1          /dev/ng1n1") || !strings.Contains(r.Stdout, "/dev/nvme0n1 ") {
				t.Errorf("list:\n%s", r.Stdout)
			}
			r = s.run("list-subsys")
			want := " +- nvme1 " + tr + " traddr=10.10.0.100,trsvcid=4420"
			if tr == "tcp" {
				want += ",src_addr=10.10.0.3"
			}
			if !strings.Contains(r.Stdout, want+" live\n") || !strings.Contains(r.Stdout, "NQN="+nqn) {
				t.Errorf("list-subsys, want %q:\n%s", want, r.Stdout)
			}
			r = s.run("disconnect", "-n", nqn)
			if r.Status != 0 || r.Stdout != "NQN:"+nqn+" disconnected 1 controller(s)\n" {
				t.Errorf("disconnect: %+v", r)
			}
			if got := s.dev(); got != "nvme0 nvme0n1" {
				t.Errorf("/dev after disconnect: %s", got)
			}
			if r := s.run("disconnect", "-n", nqn); r.Stdout != "NQN:"+nqn+" disconnected 0 controller(s)\n" {
				t.Errorf("second disconnect: %+v", r)
			}
		})
	}
}

// Both transports to one subsystem: two paths, one block device.
func TestTwoPathsOneSubsystem(t *testing.T) {
	s := newShell(t, node())
	s.run("connect", "-t", "tcp", "-a", "10.10.0.100", "-n", nqn)
	if r := s.run("connect", "-t", "rdma", "-a", "10.10.0.100", "-n", nqn); r.Stdout != "connecting to device: nvme2\n" {
		t.Fatalf("second transport: %+v", r)
	}
	if got := s.dev(); got != "nvme1 nvme1n1 nvme2" {
		t.Errorf("/dev: %s", got)
	}
	r := s.run("list-subsys")
	if strings.Count(r.Stdout, "nvme-subsys1 - ") != 1 || !strings.Contains(r.Stdout, " +- nvme2 rdma ") {
		t.Errorf("list-subsys:\n%s", r.Stdout)
	}
	if r := s.run("disconnect", "-n", nqn); !strings.Contains(r.Stdout, "disconnected 2 controller(s)") {
		t.Errorf("disconnect: %+v", r)
	}
	if got := s.dev(); got != "" {
		t.Errorf("/dev: %q", got)
	}
}

func TestConnectFailures(t *testing.T) {
	for _, c := range []struct {
		name   string
		change func(*model.Node)
		args   []string
		stderr string
	}{
		{"rdma not offered", func(n *model.Node) { n.NVMeoF.Transports = []string{"tcp"} }, []string{"-t", "rdma"},
			"Failed to write to /dev/nvme-fabrics: Connection reset by peer\ncould not add new controller: failed to write to nvme-fabrics device\n"},
		{"tcp not offered", func(n *model.Node) { n.NVMeoF.Transports = []string{"rdma"} }, []string{"-t", "tcp"},
			"Failed to write to /dev/nvme-fabrics: Connection refused\ncould not add new controller: connection refused\n"},
		{"no hca", func(n *model.Node) { n.HCAs = nil }, []string{"-t", "rdma"},
			"Failed to write to /dev/nvme-fabrics: No such device\ncould not add new controller: invalid interface\n"},
		{"port down", func(n *model.Node) { n.HCAs[0].Ports[0].State, n.HCAs[0].Ports[0].PhysState = "Down", "Polling" }, []string{"-t", "rdma"},
			"Failed to write to /dev/nvme-fabrics: Network is unreachable\ncould not add new controller: failed to write to nvme-fabrics device\n"},
		{"no ofed", func(n *model.Node) { n.OFED = "" }, []string{"-t", "rdma"},
			"Failed to write to /dev/nvme-fabrics: Invalid argument\ncould not add new controller: invalid arguments/configuration\n"},
		{"firewall", func(n *model.Node) { n.Faults.RDMAConnect = "firewall" }, []string{"-t", "rdma"},
			"Failed to write to /dev/nvme-fabrics: Connection timed out\ncould not add new controller: failed to write to nvme-fabrics device\n"},
		{"no target", func(n *model.Node) { n.NVMeoF = nil }, []string{"-t", "tcp"},
			"Failed to write to /dev/nvme-fabrics: Connection timed out\ncould not add new controller: failed to write to nvme-fabrics device\n"},
		{"wrong nqn", func(*model.Node) {}, []string{"-t", "tcp", "-n", "nqn.2024-01.dev.prova:other"},
			"Failed to write to /dev/nvme-fabrics: Input/output error\ncould not add new controller: failed to write to nvme-fabrics device\n"},
		{"missing nqn", func(*model.Node) {}, []string{"-t", "tcp", "-n", ""}, "required argument [--nqn | -n] not specified\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			n := node()
			c.change(n)
			s := newShell(t, n)
			args := append([]string{"connect", "-a", "10.10.0.100", "-s", "4420", "-n", nqn}, c.args...)
			r := s.run(args...)
			if r.Status != 1 || r.Stderr != c.stderr || r.Stdout != "" {
				t.Errorf("got %+v\nwant stderr %q", r, c.stderr)
			}
			if got := s.dev(); got != "" {
				t.Errorf("/dev: %q", got)
			}
		})
	}
}

func TestDiscoverFailurePrintsDiscoverText(t *testing.T) {
	n := node()
	n.NVMeoF.Transports = []string{"rdma"}
	r := simtest.Run(t, Tool(), n, "discover", "-t", "tcp", "-a", "10.10.0.100", "-s", "4420")
	want := "Failed to write to /dev/nvme-fabrics: Connection refused\nfailed to add controller, error connection refused\n"
	if r.Status != 1 || r.Stderr != want {
		t.Errorf("got %+v", r)
	}
}

func TestUnknownSubcommandAndBadOptions(t *testing.T) {
	for _, args := range [][]string{{"id-ctrl", "/dev/nvme0"}, {"list", "-o", "yaml"}, {"connect", "--bogus"}, {"disconnect"}} {
		if r := simtest.Run(t, Tool(), node(), args...); r.Status != 1 || r.Stderr == "" {
			t.Errorf("%v: %+v", args, r)
		}
	}
}
