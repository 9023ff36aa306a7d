package nvme

import (
	"testing"

	"github.com/provadev/prova/internal/testkit/parsecheck"
	"github.com/provadev/prova/internal/testkit/samples"
	"github.com/provadev/prova/parse"
)

// TestEverySampleIsTested fails when a sample appears that no test names,
// so that new samples get assertions, not only fuzz seeds.
func TestEverySampleIsTested(t *testing.T) {
	tested := map[string]bool{}
	for _, rel := range []string{
		"connect-all-and-list-2.x-ceph-nvmeof-issue506.txt", "connect-list-listsubsys-tcp-2.x-mikrotik.txt",
		"disconnect-nqn-1-controller-commitmsg.txt", "disconnect-nqn-tcp-2.x-mikrotik.txt",
		"discover-connect-list-disconnect-rdma-spdk-1.x.txt", "discover-connect-list-subsys-rdma-3-paths-smartx.txt",
		"discover-connect-tcp-tls-2.x-loopback.txt", "discover-fc-2-records-commitmsg.txt",
		"discover-rdma-2016-numeric-fields-commitmsg.txt", "discover-rdma-cscs-1-record.txt",
		"discover-tcp-json-2-records-pr940.txt", "error-connect-all-already-in-progress-commitmsg.txt",
		"error-connect-all-invalid-argument-fc-commitmsg.txt", "error-discover-rdma-connection-reset-segfault-commitmsg.txt",
		"error-discover-tcp-failed-to-read-nvme-fabrics-commitmsg.txt", "error-no-nvme-driver-failed-to-scan-topology.txt",
		"list-and-list-v-2019-pcie-and-loop-commitmsg.txt", "list-json-1.x-aws-ec2-commented.txt",
		"list-json-1.x-fabrics-sysfs-errors-mailinglist.txt", "list-json-2.x-device-element-vastdata-PARTIAL.txt",
		"list-subsys-and-json-doc-example-v1.16.txt", "list-subsys-json-2.x-tcp-powerstore-gonvme-fixture.txt",
		"list-subsys-json-2.x-vastdata-PARTIAL.txt", "list-subsys-rdma-2-subsystems-1.x-commitmsg.txt",
		"list-subsys-tcp-2.x-blank-ana-state-issue1458.txt", "list-subsys-tcp-2.x-non-optimized-pr1540.txt",
		"list-subsys-tcp-ana-states-1.x-commitmsg.txt", "list-v-tcp-2.x-mikrotik-and-list-ns-error.txt",
		"nvme-help-2.3.txt", "nvme-version-2.3.txt", "show-topology-json-2.x-tcp-ana-PARTIAL-pr1693.txt",
		"show-topology-text-2.x-tcp-multi-ns-pr1693.txt",
	} {
		tested["nvme-cli/"+rel] = true
	}
	for _, rel := range samples.Glob(t, "nvme-cli/*") {
		if !tested[rel] {
			t.Errorf("sample %s has no test", rel)
		}
	}
}

func seed(f *testing.F) {
	for _, rel := range samples.Glob(f, "nvme-cli/*") {
		f.Add(samples.Read(f, rel))
	}
	f.Add([]byte("Discovery Log Number of Records 1, Generation counter 1\n=====Discovery Log Entry 0======\n"))
	f.Add([]byte("nvme-subsys0 - NQN=x\n\\\n +- nvme0 tcp traddr=a,trsvcid=1 live optimized\n +- ns id 1\n"))
	f.Add([]byte("Node SN\n---- --\n/dev/nvme0n1 x\n"))
}

// fuzzParser checks the properties every parser keeps: no panic, errors
// are *parse.Error naming the tool, successes marshal to JSON.
func fuzzParser(f *testing.F, p func([]byte) (any, error)) {
	seed(f)
	parsecheck.Fuzz(f, p)
}

func FuzzDiscover(f *testing.F)     { fuzzParser(f, parse.Typed(ParseDiscover)) }
func FuzzListSubsys(f *testing.F)   { fuzzParser(f, parse.Typed(ParseListSubsys)) }
func FuzzShowTopology(f *testing.F) { fuzzParser(f, parse.Typed(ParseShowTopology)) }
func FuzzList(f *testing.F)         { fuzzParser(f, parse.Typed(ParseList)) }
func FuzzConnect(f *testing.F)      { fuzzParser(f, parse.Typed(ParseConnect)) }
func FuzzDisconnect(f *testing.F)   { fuzzParser(f, parse.Typed(ParseDisconnect)) }
func FuzzVersion(f *testing.F)      { fuzzParser(f, parse.Typed(ParseVersion)) }

func TestParsersRegistered(t *testing.T) {
	r := parse.NewRegistry(Parsers())
	for _, name := range []string{"nvme-discover", "nvme-list-subsys", "nvme-list", "nvme-connect", "nvme-disconnect", "nvme-show-topology", "nvme-version"} {
		p, ok := r.Lookup(name)
		if !ok {
			t.Fatalf("parser %s missing", name)
		}
		if _, err := p.Parse([]byte("garbage\n")); err == nil && name != "nvme-list-subsys" && name != "nvme-list" {
			t.Errorf("%s accepted garbage", name)
		}
	}
	v, err := Parsers()[0].Parse(samples.Read(t, "nvme-cli/discover-rdma-cscs-1-record.txt"))
	if d, ok := v.(*Discovery); err != nil || !ok || d.Records[0].Traddr != "148.187.104.85" {
		t.Errorf("nvme-discover via registry: %v %v", v, err)
	}
	if v, err := Parsers()[0].Parse(nil); v != nil || err == nil {
		t.Errorf("failed parse must return a nil value, got %#v", v)
	}
}
