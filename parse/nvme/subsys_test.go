package nvme

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/provadev/prova/internal/testkit/samples"
)

func path(name, transport, addr, state, ana string) Path {
	return Path{Name: name, Transport: transport, Addr: addr, Address: ParseAddress(addr), State: state, ANAState: ana}
}

func TestListSubsysText1x(t *testing.T) {
	want := []Subsystem{
		{Name: "nvme-subsys0", NQN: "nvmf-test", Paths: []Path{
			path("nvme0", "rdma", "traddr=1.1.1.3 trsvcid=4420 host_traddr=1.1.1.1", "", ""),
			path("nvme1", "rdma", "traddr=1.1.1.3 trsvcid=4420 host_traddr=1.1.1.2", "", ""),
		}},
		{Name: "nvme-subsys1", NQN: "nvmf-test2", Paths: []Path{
			path("nvme2", "rdma", "traddr=1.1.1.3 trsvcid=4420 host_traddr=1.1.1.2", "", ""),
			path("nvme3", "rdma", "traddr=1.1.1.3 trsvcid=4420 host_traddr=1.1.1.1", "", ""),
		}},
	}
	for _, rel := range []string{
		"nvme-cli/list-subsys-rdma-2-subsystems-1.x-commitmsg.txt",
		"nvme-cli/list-subsys-and-json-doc-example-v1.16.txt", // text part first; the JSON is tested below
	} {
		l, err := ParseListSubsys(samples.Read(t, rel))
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, l.Subsystems); diff != "" {
			t.Errorf("%s (-want +got):\n%s", rel, diff)
		}
		if p := l.Subsystems[0].Paths[1]; p.Traddr != "1.1.1.3" || p.Trsvcid != "4420" || p.HostTraddr != "1.1.1.2" {
			t.Errorf("address split wrong: %+v", p.Address)
		}
	}
	// The same listing as JSON (1.x: Name/NQN and Paths as separate elements).
	l, err := ParseListSubsys(section(t, "nvme-cli/list-subsys-and-json-doc-example-v1.16.txt", "nvme list-subsys -o json", ""))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, l.Subsystems); diff != "" {
		t.Errorf("1.x JSON (-want +got):\n%s", diff)
	}
}

func TestListSubsysSmartxRDMA(t *testing.T) {
	l, err := ParseListSubsys(samples.Read(t, "nvme-cli/discover-connect-list-subsys-rdma-3-paths-smartx.txt"))
	if err != nil {
		t.Fatal(err)
	}
	want := []Subsystem{{Name: "nvme-subsys11", NQN: "nqn.2020-12.com.smartx:system:sub1", Paths: []Path{
		path("nvme11", "rdma", "traddr=10.0.58.75 trsvcid=4420", "live", ""),
		path("nvme12", "rdma", "traddr=10.0.58.76 trsvcid=4420", "live", ""),
		path("nvme13", "rdma", "traddr=10.0.58.77 trsvcid=4420", "live", ""),
	}}}
	if diff := cmp.Diff(want, l.Subsystems); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if got := l.Transports("nqn.2020-12.com.smartx:system:sub1"); !cmp.Equal(got, []string{"rdma"}) {
		t.Errorf("Transports = %v", got)
	}
	if got := l.Transports("nqn.other"); got != nil {
		t.Errorf("Transports of an unknown NQN = %v", got)
	}
}

func TestListSubsysANAStates1x(t *testing.T) {
	// Two listings separated by the commit author's prose: the first ends
	// at the prose line; the second is read from its own section.
	l, err := ParseListSubsys(samples.Read(t, "nvme-cli/list-subsys-tcp-ana-states-1.x-commitmsg.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Subsystems) != 1 || len(l.Subsystems[0].Paths) != 10 {
		t.Fatalf("got %+v", l.Subsystems)
	}
	s := l.Subsystems[0]
	if s.NQN != "nqn.2016-01.com.lightbitslabs:uuid:07cfffe6-5a4f-4151-b663-e13cf835609b" {
		t.Errorf("nqn %q", s.NQN)
	}
	if diff := cmp.Diff(path("nvme3", "tcp", "traddr=10.113.1.1 trsvcid=4420", "live", "inaccessible"), s.Paths[3]); diff != "" {
		t.Error(diff)
	}
	if p := s.Paths[9]; p.Name != "nvme9" || p.Traddr != "10.113.3.1" || p.State != "live" || p.ANAState != "" {
		t.Errorf("path 9 %+v", p)
	}
	l2, err := ParseListSubsys(section(t, "nvme-cli/list-subsys-tcp-ana-states-1.x-commitmsg.txt", "output which provided", ""))
	if err != nil {
		t.Fatal(err)
	}
	if got := l2.Subsystems[0].Paths; len(got) != 2 || got[0].ANAState != "optimized" || got[1].ANAState != "inaccessible" {
		t.Errorf("second listing %+v", got)
	}
}

func TestListSubsysText2x(t *testing.T) {
	l, err := ParseListSubsys(samples.Read(t, "nvme-cli/list-subsys-tcp-2.x-blank-ana-state-issue1458.txt"))
	if err != nil {
		t.Fatal(err)
	}
	want := []Subsystem{
		{Name: "nvme-subsys2", NQN: "nqn.2014-08.org.nvmexpress:NVMf:uuid:da4898a0-8345-4b04-8d49-89c50c9ef027", Paths: []Path{
			path("nvme4", "tcp", "traddr=127.0.0.1,trsvcid=4421", "live", ""),
			path("nvme2", "tcp", "traddr=127.0.0.1,trsvcid=4420", "live", "non-optimized"),
		}},
		{Name: "nvme-subsys1", NQN: "nqn.2014-08.org.nvmexpress:NVMf:uuid:c54e45a7-8c32-4894-b5da-e509f368bc68", Paths: []Path{
			path("nvme3", "tcp", "traddr=127.0.0.1,trsvcid=4421", "live", ""),
			path("nvme1", "tcp", "traddr=127.0.0.1,trsvcid=4420", "live", "optimized"),
		}},
	}
	if diff := cmp.Diff(want, l.Subsystems); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}

	l, err = ParseListSubsys(samples.Read(t, "nvme-cli/list-subsys-tcp-2.x-non-optimized-pr1540.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if p := l.Subsystems[0].Paths; len(p) != 2 || p[0].Traddr != "10.162.198.42" || p[0].ANAState != "non-optimized" || p[1].ANAState != "optimized" {
		t.Errorf("pr1540 paths %+v", p)
	}
}

func TestListSubsysMikrotikPCIeAndTCP(t *testing.T) {
	l, err := ParseListSubsys(samples.Read(t, "nvme-cli/connect-list-listsubsys-tcp-2.x-mikrotik.txt"))
	if err != nil {
		t.Fatal(err)
	}
	host := "nqn.2014-08.org.nvmexpress:uuid:8da769da-ae4e-43b5-a9eb-ea2de1d752d6"
	want := []Subsystem{
		{Name: "nvme-subsys0", NQN: "nqn.2014.08.org.nvmexpress:80868086PHMB751300WU480DGN  INTEL SSDPED1D480GA",
			HostNQN: host, IOPolicy: "numa", Paths: []Path{path("nvme0", "pcie", "0000:41:00.0", "live", "")}},
		{Name: "nvme-subsys1", NQN: "nqn.2026-09.com.mikrotik:rds2216.vm-storage-001", HostNQN: host, IOPolicy: "numa",
			Paths: []Path{path("nvme1", "tcp", "traddr=172.16.100.125,trsvcid=4420,src_addr=172.16.100.113", "live", "")}},
	}
	if diff := cmp.Diff(want, l.Subsystems); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if a := l.Subsystems[1].Paths[0].Address; a.SrcAddr != "172.16.100.113" || a.Trsvcid != "4420" {
		t.Errorf("address %+v", a)
	}
	if a := l.Subsystems[0].Paths[0].Address; a.Traddr != "0000:41:00.0" {
		t.Errorf("pcie address %+v", a)
	}
}

func TestListSubsysJSON2x(t *testing.T) {
	l, err := ParseListSubsys(samples.Read(t, "nvme-cli/list-subsys-json-2.x-tcp-powerstore-gonvme-fixture.txt"))
	if err != nil {
		t.Fatal(err)
	}
	want := []Subsystem{{Name: "nvme-subsys0", NQN: "nqn.1988-11.com.dell:powerstore:00:1b7322d7546dFD05675D",
		HostNQN: "nqn.2014-08.org.nvmexpress:uuid:6f08058a-af91-46bf-8311-a60da3a10348",
		HostID:  "6f08058a-af91-46bf-8311-a60da3a10348", IOPolicy: "numa", Paths: []Path{
			path("nvme3", "tcp", "traddr=10.1.1.1,trsvcid=4420,src_addr=10.1.1.2", "live", ""),
			path("nvme2", "tcp", "traddr=10.1.1.2,trsvcid=4420,src_addr=10.1.1.2", "live", ""),
		}}}
	if diff := cmp.Diff(want, l.Subsystems); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if got := l.Transports("nqn.1988-11.com.dell:powerstore:00:1b7322d7546dFD05675D"); !cmp.Equal(got, []string{"tcp"}) {
		t.Errorf("Transports = %v", got)
	}
}

func TestListSubsysErrors(t *testing.T) {
	// PARTIAL: indented by the docstring and the rest replaced by "....."
	// - neither JSON nor a listing.
	_, err := ParseListSubsys(samples.Read(t, "nvme-cli/list-subsys-json-2.x-vastdata-PARTIAL.txt"))
	wantParseError(t, err, "nvme list-subsys", 0, "no subsystem found")
	// Unindented, it is JSON cut short.
	_, err = ParseListSubsys([]byte("[\n" + strings.ReplaceAll(string(samples.Read(t, "nvme-cli/list-subsys-json-2.x-vastdata-PARTIAL.txt")), "\n    ", "\n")))
	wantParseError(t, err, "nvme list-subsys", 1, "invalid JSON")

	_, err = ParseListSubsys(section(t, "nvme-cli/error-no-nvme-driver-failed-to-scan-topology.txt", "$ nvme list-subsys -o json", "[exit status"))
	wantParseError(t, err, "nvme list-subsys", 1, "nvme driver not loaded")

	_, err = ParseListSubsys([]byte("nvme-subsys0 - NQN=x\n\\\n +- nvme0\n"))
	wantParseError(t, err, "nvme list-subsys", 3, "needs a controller name and a transport")

	_, err = ParseListSubsys([]byte("nvme-subsys0 - NQN=x\n\\\n +- ctrl0 tcp traddr=1\n"))
	wantParseError(t, err, "nvme list-subsys", 3, `"ctrl0" is not nvmeN`)

	_, err = ParseListSubsys([]byte(`{"Subsystems":[{"Paths":[{"Name":"nvme0"}]}]}`))
	wantParseError(t, err, "nvme list-subsys", 0, "has no Name")

	_, err = ParseListSubsys([]byte("some text\n"))
	wantParseError(t, err, "nvme list-subsys", 0, "no subsystem found")

	l, err := ParseListSubsys([]byte("\n"))
	if err != nil || len(l.Subsystems) != 0 {
		t.Fatalf("empty output = %+v, %v; want no subsystems", l, err)
	}
}
