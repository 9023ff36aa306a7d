package nvme

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/provadev/prova/internal/testkit/samples"
)

func TestShowTopologyText(t *testing.T) {
	l, err := ParseShowTopology(samples.Read(t, "nvme-cli/show-topology-text-2.x-tcp-multi-ns-pr1693.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Subsystems) != 2 {
		t.Fatalf("got %d subsystems", len(l.Subsystems))
	}
	s := l.Subsystems[0]
	if s.NQN != "nvmet-test" || len(s.Namespaces) != 4 || len(s.Paths) != 4 {
		t.Fatalf("subsystem 0: nqn %q, %d namespaces, %d paths", s.NQN, len(s.Namespaces), len(s.Paths))
	}
	ns3 := s.Namespaces[1]
	if ns3.NSID != 3 || len(ns3.Paths) != 4 {
		t.Fatalf("ns 3 = %+v", ns3)
	}
	if diff := cmp.Diff(path("nvme4", "tcp", "traddr=192.168.154.10,trsvcid=4422", "live", "optimized"), ns3.Paths[2]); diff != "" {
		t.Error(diff)
	}
	pcie := l.Subsystems[1]
	if pcie.NQN != "nqn.2017-03.jp.co.toshiba:KXG60ZNV512G NVMe TOSHIBA 512GB:49MA23BZK03N" ||
		!cmp.Equal(pcie.Paths, []Path{path("nvme0", "pcie", "0000:3d:00.0", "live", "")}) {
		t.Errorf("pcie subsystem %+v", pcie)
	}
	if got := l.Transports("nvmet-test"); !cmp.Equal(got, []string{"tcp"}) {
		t.Errorf("Transports = %v", got)
	}
}

func TestShowTopologyJSON(t *testing.T) {
	// PARTIAL sample: cut inside the 4th path. Invalid JSON is an error...
	_, err := ParseShowTopology(samples.Read(t, "nvme-cli/show-topology-json-2.x-tcp-ana-PARTIAL-pr1693.txt"))
	wantParseError(t, err, "nvme show-topology", 0, "invalid JSON")

	// ...and the sample closed after its third path reads fine.
	head := strings.TrimRight(string(section(t, "nvme-cli/show-topology-json-2.x-tcp-ana-PARTIAL-pr1693.txt", "", `"Name":"nvme4"`)), " \n{")
	fixed := strings.TrimSuffix(head, ",") + "]}]}]}]\n"
	l, err := ParseShowTopology([]byte(fixed))
	if err != nil {
		t.Fatalf("%v\n%s", err, fixed)
	}
	s := l.Subsystems[0]
	if s.HostNQN != "nqn.2014-08.org.nvmexpress:uuid:12372496-59c4-4d1b-be09-74362c0c1afc" || len(s.Namespaces) != 1 || s.Namespaces[0].NSID != 2 {
		t.Fatalf("got %+v", s)
	}
	if diff := cmp.Diff(path("nvme3", "tcp", "traddr=192.168.2.116,trsvcid=4420,host_traddr=192.168.1.16", "live", "optimized"), s.Paths[2]); diff != "" {
		t.Error(diff)
	}
	if s.Paths[0].HostTraddr != "192.168.1.16" {
		t.Errorf("host_traddr %q", s.Paths[0].HostTraddr)
	}
}
