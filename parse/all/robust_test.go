package all_test

import (
	"bytes"
	"os"
	"sort"
	"strings"
	"testing"

	"github.com/provadev/prova/internal/testkit/parsecheck"
	"github.com/provadev/prova/internal/testkit/samples"
	"github.com/provadev/prova/parse/all"
)

// real is one real output per parser: a sample, the pasted prompt lines to
// drop from its start and, for samples holding more, the line after which
// the tool's output ends ("" = to the end); or, with section N > 0, the
// Nth tool output of a sample that holds several (split at its prompts).
var real = []struct {
	parser, sample string
	skip           int
	until          string
	section        int
}{
	{"ibstat", "ibstat/ibstat-mlx4_0-2port-port1-down-polling-port2-active.txt", 1, "", 0},
	{"ibstatus", "ibstatus/ibstatus-4-ports-mixed-roce-ib-one-down-disabled.txt", 0, "", 0},
	{"ibv-devinfo", "ibv_devinfo/ibv_devinfo-cx6-ib-port-active.txt", 1, "", 0},
	{"ibdev2netdev", "ibdev2netdev/ibdev2netdev-mixed-roce-ib-one-down.txt", 0, "", 0},
	{"rdma-link", "rdma-link/rdma-link-show-ibm-ceph-doc-bnxt.txt", 1, "", 0},
	{"rdma-link", "rdma-link/rdma-j-link-show-json-go-fixture.txt", 0, "", 0},
	{"mmdiag-network", "gpfs/mmdiag-network-mrot-tcp-compute-cluster.txt", 1, "", 0},
	{"mmdiag-config-y", "gpfs/mmdiag-config-Y-changed-column.txt", 0, "", 0},
	{"mmgetstate-y", "gpfs/mmgetstate-Y-active.txt", 0, "", 0},
	{"mmgetstate", "gpfs/mmgetstate-av-active-9-nodes.txt", 1, "", 0},
	{"mmlscluster", "gpfs/mmlscluster-ccr-7-nodes.txt", 3, "", 0},
	{"mmlsnodeclass", "gpfs/mmlsnodeclass-user-1-class-1-node.txt", 1, "", 0},
	{"mmfsadm-verbs-status", "gpfs/mmfsadm-test-verbs-status-started.txt", 0, "", 0},
	{"mmfs-log", "gpfs/mmfs-log-latest-tail-tcp-connects.txt", 0, "", 0},
	{"gdscheck", "gds/gdscheck-p-1.16-nvidia-doc-sample-nvfs-dmabuf-compat.txt", 0, "", 0},
	{"nvme-list-subsys", "nvme-cli/list-subsys-tcp-2.x-blank-ana-state-issue1458.txt", 0, "", 0},
	{"nvme-version", "nvme-cli/nvme-version-2.3.txt", 0, "[exit status", 0},
	{"nvidia-smi-topo", "nvidia-smi-topo/topo-m-8gpu-nvlink-nv1-nv2-mlx5_0-driver440.txt", 0, "", 0},
	{"mpstat", "mpstat/mpstat-P-ALL-1-2-C-locale.txt", 0, "", 0},
	{"mpstat", "mpstat/mpstat-o-JSON-P-ALL-1-2.json", 0, "", 0},
	{"mpstat", "mpstat/mpstat-P-ALL-2-de_DE-decimal-comma-2009.txt", 0, "", 0},
	{"rdma-link", "rdma-link/rdma-link-older-iproute2-index-prefix-i40iw-mlx5.txt", 0, "", 0},
	{"fio", "fio/randread-4k.json", 0, "", 0},
	{"fio", "fio/randread-4k-normal.txt", 0, "", 0},
	{"elbencho-resfile", "elbencho/resfile-sections-latpercent-lathisto-FIXTURE.txt", 0, "", 0},
	{"perftest-lat", "perftest/ib_write_lat-rdma_cm-roce-dgx-spark.txt", 0, "", 0},
	{"perftest-bw", "perftest/ib_write_bw-client-softroce-rxe0-65536.txt", 0, "", 0},
	{"ibv-devinfo", "ibv_devinfo/ibv_devinfo-2-hcas-ib-active-eth-down-go-fixture.txt", 0, "", 0},
	{"ibstatus", "ibstatus/ibstatus-mlx4-port1-active-fdr10-port2-down-polling-TABS.txt", 0, "", 0},
	{"nvme-list-subsys", "nvme-cli/list-subsys-json-2.x-tcp-powerstore-gonvme-fixture.txt", 0, "", 0},
	{"nvme-discover", "nvme-cli/discover-tcp-json-2-records-pr940.txt", 0, "", 0},
	{"nvidia-smi-topo", "nvidia-smi-topo/topo-m-4gpu-nv18-4nic-nic-legend-go-fixture.txt", 0, "", 0},
	{"elbencho-version", "elbencho/version-3.0-26-issue75.txt", 1, "", 0},
	{"elbencho-csv", "elbencho/csvfile-3.1-1-weka-mkdirs-write-read-TRIMMED-fixture.txt", 0, "", 0},
	{"fio", "fio/seqread-1m.json", 0, "", 0},
	{"mmfsadm-verbs-status", "gpfs/mmfsadm-test-verbs-status-disabled.txt", 0, "", 0},
	{"mmfs-log", "gpfs/mmfs-log-verbs-rdma-closed-connection-errors.txt", 0, "", 0},
	{"rdma-link", "rdma-link/rdma-link-rxe-softroce-mailinglist.txt", 4, "", 0},
	{"cufile-json", "gds/cufile-json-default-nvidia-config-guide.txt", 0, "", 0},
	{"elbencho", "elbencho/console-v3-write-1thread-direct-issue75.txt", 0, "", 1},
	{"elbencho", "elbencho/console-v1-large-files-write-dropcache-nersc.txt", 0, "Working on /data/zettar/zx/src/sweep/512x2GiB", 0},
	{"elbencho-livecsv", "elbencho/livecsv-livecsvex-per-rank-PARTIAL-issue102.txt", 0, "", 0},
	{"gdsio", "gds/gdsio-read-gpud-cpuonly-cpu_gpu-and-gdsio_verify.txt", 1, "\n/usr/local/cuda/gds/tools/gdsio ", 0}, // gdsio_verify
	{"gdsio", "gds/gdsio-read-gpud-cpuonly-cpu_gpu-and-gdsio_verify.txt", 7, "\n/usr/local/cuda/gds/tools/gdsio ", 0}, // one gdsio run
	{"gdscheck", "gds/gdscheck-p-1.14-rtx6000ada-nvme-supported-full.txt", 0, "", 1},
	{"ibv-devices", "ibv_devinfo/ibv_devices-mlx4-and-irdma.txt", 0, "", 1},
	{"mmaddnode", "gpfs/mmaddnode-partial-failure-unreachable-4.2.3.txt", 0, "", 1},
	{"mmchconfig", "gpfs/mmchconfig-success-propagating-4.2.3.txt", 0, "", 1},
	{"mmlsconfig", "gpfs/mmlsconfig-clean-4.2.3-PARTIAL.txt", 0, "", 1},
	{"mmlsmount", "gpfs/mmlsmount-all-L-7-nodes-2017.txt", 0, "", 1},
	{"mmlsmount", "gpfs/mmlsmount-all-L-6-nodes-remote-cluster-ibmcloud.txt", 0, "", 1},
	{"mmlsnsd", "gpfs/mmlsnsd-L-2-servers-5-nsds-2node-cluster.txt", 0, "", 1},
	{"mmlsnsd", "gpfs/mmlsnsd-a-1-server-6-nsds-ibmcloud.txt", 0, "", 1},
	{"mmshutdown", "gpfs/mmshutdown-a-2-nodes-4.2-el7.txt", 0, "", 1},
	{"mmstartup", "gpfs/mmstartup-a-and-mmgetstate-aL-active.txt", 0, "", 1},
	{"mmgetstate", "gpfs/mmstartup-a-and-mmgetstate-aL-active.txt", 0, "", 2},
	{"nvme-connect", "nvme-cli/discover-connect-tcp-tls-2.x-loopback.txt", 0, "", 2},
	{"nvme-disconnect", "nvme-cli/disconnect-nqn-tcp-2.x-mikrotik.txt", 0, "", 1},
	{"nvme-list", "nvme-cli/list-and-list-v-2019-pcie-and-loop-commitmsg.txt", 0, "", 1},
	{"nvme-list", "nvme-cli/list-json-1.x-fabrics-sysfs-errors-mailinglist.txt", 0, "", 1},
	{"nvme-list-subsys", "nvme-cli/list-subsys-rdma-2-subsystems-1.x-commitmsg.txt", 0, "", 1},
	{"nvme-show-topology", "nvme-cli/show-topology-text-2.x-tcp-multi-ns-pr1693.txt", 0, "", 1},
	{"nvme-discover", "nvme-cli/discover-rdma-cscs-1-record.txt", 0, "", 1},
	{"ofed-info", "ofed_info/ofed_info-s-variants-multiple-sources.txt", 0, "", 6},
	{"ofed-info", "ofed_info/ofed_info-s-variants-multiple-sources.txt", 0, "", 3},
	{"mmfs-log", "gpfs/mmfs-log-old-timestamps-no-severity-network-failure-docs-5.2.1.txt", 0, "", 0},
	{"mmfs-log", "gpfs/mmfs-log-cnfs-ganesha-lines-date-tz-2015-issue17.txt", 0, "", 0},
	{"perftest-bw", "perftest/ib_write_bw-server-use_cuda-pre-header-notice-rtx4080.txt", 0, "", 0},
	{"ip-addr", "iproute2/ip-o-4-addr-ipoib-ib0.txt", 0, "", 1},
	{"lspci-vvv", "lspci/lspci-vvv-s-amd-gpp-downstream-port-acs-redirect.txt", 0, "", 1},
	{"nvidia-fs-stats", "gds/nvidia-fs-stats-1.14-io-stats-disabled.txt", 0, "", 1},
}

// assumed holds, for the parsers whose tool output has no public sample
// (testdata/samples/INDEX.md, "Gaps"), the documented or assumed form the
// parser and the lab share. These are not evidence of the real format;
// they hold the parsers to the same rules until a real sample exists.
var assumed = []struct{ parser, text string }{
	{"mmfsadm-verbs-conn", ""}, // the example block of docs/gpfs-verbs-conn.md, read below
	{"mmdiag-verbs-y", "mmdiag:verbsInfo:HEADER:version:reserved:reserved:status:ports:\n" +
		"mmdiag:verbsInfo:0:1:::started:2:\n" +
		"mmdiag:verbsConn:HEADER:version:reserved:reserved:destination:hostname:state:device:port:qps:\n" +
		"mmdiag:verbsConn:0:1:::10.0.0.2:gpfs02:RTS:mlx5_0:1:2:\n" +
		"mmdiag:verbsConn:0:1:::10.0.0.3::error:mlx5_1:1:0:\n"},
	{"mmdiag-config", "\n=== mmdiag: config ===\n  allowDeleteAclOnChmod 1\n! pagepool 17179869184\n" +
		"! verbsPorts mlx5_0/1 mlx5_1/1\n! verbsRdma enable\n  verbsRdmaSend 0\n  tscPrimary (undefined)\n"},
	{"mmlsnodeclass-y", "mmlsnodeclass::HEADER:version:reserved:reserved:nodeclassName:type:memberClasses:allMembers:\n" +
		"mmlsnodeclass::0:1:::siteA:USER::c1,c2:\n" +
		"mmlsnodeclass::0:1:::siteAB:USER:siteA:c1,c2:\n" +
		"mmlsnodeclass::0:1:::quorumNodes:SYSTEM::c1:\n"},
	{"mmlsconfig-y", "mmlsconfig::HEADER:version:reserved:reserved:configParameter:value:nodeList:\n" +
		"mmlsconfig::0:1:::clusterName:lab.example::\n" +
		"mmlsconfig::0:1:::verbsPorts:mlx5_0/1 mlx5_1/1::\n" +
		"mmlsconfig::0:1:::verbsRdma:enable:nsdNodes:\n" +
		"mmlsconfig::0:1:::pagepool:16G:gpfs01,gpfs02:\n"},
}

// gaps are the cases a parser is known not to survive yet, by parser and
// case; TestParsersNeverGuess fails when a listed gap is closed (so the
// list shrinks) and when a new one appears. Every parser survives every
// case on every output below.
var gaps = map[string][]string{}

// output returns the tool output an entry of real names.
func output(t *testing.T, sample string, skip int, until string, section int) []byte {
	if section > 0 {
		secs := samples.Sections(t, sample, nil)
		if section > len(secs) {
			t.Fatalf("%s has %d outputs, not %d", sample, len(secs), section)
		}
		return secs[section-1]
	}
	b := samples.Strip(samples.Read(t, sample))
	lines := bytes.SplitAfter(b, []byte("\n"))
	b = bytes.Join(lines[skip:], nil)
	if until != "" {
		if i := bytes.Index(b, []byte(until)); i >= 0 {
			b = b[:i]
		}
	}
	return b
}

// verbsConnDoc is the example block after "## The assumed format" in
// docs/gpfs-verbs-conn.md, which the lab prints too.
func verbsConnDoc(t *testing.T) string {
	b, err := os.ReadFile("../../docs/gpfs-verbs-conn.md")
	if err != nil {
		t.Fatal(err)
	}
	_, after, _ := strings.Cut(string(b), "## The assumed format")
	_, block, ok := strings.Cut(after, "```\n")
	block, _, ok2 := strings.Cut(block, "```")
	if !ok || !ok2 {
		t.Fatal("docs/gpfs-verbs-conn.md has no example block")
	}
	return block
}

func TestParsersNeverGuess(t *testing.T) {
	reg := all.Registry()
	found := map[string][]string{}
	covered := map[string]bool{}
	check := func(parser, what string, b []byte) {
		p, ok := reg.Lookup(parser)
		if !ok {
			t.Fatalf("no parser %s", parser)
		}
		covered[parser] = true
		for _, f := range parsecheck.Check(parsecheck.Parse(p.Parse), b) {
			if !contains(found[parser], f.Case) {
				found[parser] = append(found[parser], f.Case)
			}
			if !contains(gaps[parser], f.Case) {
				t.Errorf("%s on %s: %s", parser, what, f)
			}
		}
	}
	for _, r := range real {
		check(r.parser, r.sample, output(t, r.sample, r.skip, r.until, r.section))
	}
	for _, a := range assumed {
		in := a.text
		if a.parser == "mmfsadm-verbs-conn" {
			in = verbsConnDoc(t)
		}
		check(a.parser, "its assumed form", []byte(in))
	}
	for _, p := range reg.List() {
		if !covered[p.Name] {
			t.Errorf("parser %s is not in the kit: add a real sample of %q to real (or its assumed form to assumed)", p.Name, p.Command)
		}
	}
	for parser, cs := range gaps {
		for _, c := range cs {
			if !contains(found[parser], c) {
				t.Errorf("%s now survives %q: remove it from gaps", parser, c)
			}
		}
	}
	var names []string
	for n := range found {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		t.Logf("%s: %s", n, strings.Join(found[n], ", "))
	}
}

func contains(s []string, v string) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}
