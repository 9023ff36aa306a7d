package verbsdiag

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hcldec"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/provadev/prova/engine/module"
	"github.com/provadev/prova/engine/module/moduletest"
	"github.com/provadev/prova/internal/testkit/samples"
	"github.com/provadev/prova/modules/internal/gpfscmd"
	"github.com/provadev/prova/parse"
	"github.com/provadev/prova/parse/gpfs"
)

// node is one fake node's tool outputs.
type node struct {
	name, ibstat, ofed, ports, status, log string
	connected                              []string // peers with a connected row
	rdmaRows                               []string // mmdiag --network RDMA rows, when not connected
}

var ips = map[string]string{"gpfs01": "10.10.1.11", "gpfs02": "10.10.1.12", "gpfs03": "10.10.1.13"}

const twoPorts = "CA 'mlx5_0'\n\tPort 1:\n\t\tState: Active\n\t\tPhysical state: LinkUp\n\t\tRate: 200\n\t\tLink layer: InfiniBand\n" +
	"CA 'mlx5_1'\n\tPort 1:\n\t\tState: Active\n\t\tPhysical state: LinkUp\n\t\tRate: 200\n\t\tLink layer: InfiniBand\n"

func healthy(name string) node {
	var peers []string
	for _, p := range []string{"gpfs01", "gpfs02", "gpfs03"} {
		if p != name {
			peers = append(peers, p)
		}
	}
	return node{name: name, ibstat: twoPorts, ofed: "MLNX_OFED_LINUX-23.10-1.1.9.0:\n", ports: "mlx5_0/1 mlx5_1/1",
		status: "VERBS RDMA status: started\n", connected: peers,
		log: "2025-09-12_15:00:58.100+0200: runmmfs starting\n2025-09-12_15:00:59.020+0200: [I] VERBS RDMA started.\n"}
}

func (n node) setup(h *moduletest.FakeHost) {
	h.Reply(`^ibstat$`, moduletest.Reply{Stdout: n.ibstat})
	h.Reply(`^ibdev2netdev$`, moduletest.Reply{Stdout: "mlx5_0 port 1 ==> ib0 (Up)\nmlx5_1 port 1 ==> ib1 (Up)\n"})
	if n.ofed == "" {
		h.Reply(`^ofed_info -s$`, moduletest.Reply{RC: 127, Stderr: "sh: 1: ofed_info: not found\n"})
		h.Reply(`^ibdev2netdev$`, moduletest.Reply{RC: 127, Stderr: "sh: 1: ibdev2netdev: not found\n"})
	} else {
		h.Reply(`^ofed_info -s$`, moduletest.Reply{Stdout: n.ofed})
	}
	var cl strings.Builder
	cl.WriteString("GPFS cluster information\n========================\n  GPFS cluster name:         lab.prova\n\n Node  Daemon node name  IP address  Admin node name  Designation\n---\n")
	for i, p := range []string{"gpfs01", "gpfs02", "gpfs03"} {
		fmt.Fprintf(&cl, "   %d   %s  %s  %s  quorum-manager\n", i+1, p, ips[p], p)
	}
	h.Reply(`mmlscluster$`, moduletest.Reply{Stdout: cl.String()})
	h.Reply(`mmlsconfig -Y$`, moduletest.Reply{Stdout: "mmlsconfig::HEADER:version:reserved:reserved:configParameter:value:nodeList:\n" +
		"mmlsconfig::0:1:::verbsRdma:enable:common:\nmmlsconfig::0:1:::verbsPorts:mlx5_0/1 mlx5_1/1:common:\n" +
		"mmlsconfig::0:1:::verbsPorts:" + n.ports + ":" + n.name + ":\n"})
	h.Reply(`mmfsadm test verbs status$`, moduletest.Reply{Stdout: n.status})
	var conn strings.Builder
	conn.WriteString("RDMA Connections between nodes:\n  destination      hostname          state        device  port  qps  idx  cookie\n")
	for i, p := range n.connected {
		fmt.Fprintf(&conn, "  %s  %s  connected  mlx5_0  1  2  %d  %d\n", ips[p], p, i, 17+i)
	}
	h.Reply(`mmfsadm test verbs conn$`, moduletest.Reply{Stdout: conn.String()})
	h.Reply(`mmdiag --network$`, moduletest.Reply{Stdout: n.network()})
	h.Reply(`(?s)^awk -v h=\d+ -v t=\d+ -v n=\d+ -- .* /var/adm/ras/mmfs\.log\.latest$`, moduletest.Reply{Stdout: n.log})
}

// network is mmdiag --network as the lab prints it: TCP to every peer, an
// RDMA table (when VERBS RDMA is started) with the connected peers, or the
// rows of rdmaRows when set.
func (n node) network() string {
	var b strings.Builder
	b.WriteString("\n=== mmdiag: network ===\n\nPending messages:\n  (none)\nTCP Connections between nodes:\n")
	b.WriteString("    hostname  node  idx destination  status  err  sock  sent(MB)  recvd(MB) ostype\n")
	for i, p := range []string{"gpfs01", "gpfs02", "gpfs03"} {
		if p != n.name {
			fmt.Fprintf(&b, "    %s  <c0n%d>  0 %s  connected  0  20  0  0  Linux/L\n", p, i, ips[p])
		}
	}
	rows := n.connected
	if n.rdmaRows != nil {
		rows = n.rdmaRows
	}
	if strings.Contains(n.status, "started") {
		b.WriteString("RDMA Connections between nodes:\n  Fabric 0 - Device mlx5_0 Port 1 Width 4x Speed HDR lid 3\n    hostname  idx  CM  state  VS buff\n")
		for i, p := range rows {
			fmt.Fprintf(&b, "    %s  %d  N  RTS  (Y)903\n", p, i)
		}
	}
	return b.String()
}

func TestConformance(t *testing.T) {
	bad := healthy("gpfs02")
	bad.ports = "mlx5_0/2 mlx5_1/1"
	moduletest.Run(t, New(), moduletest.WithProbes([]moduletest.Case{
		{Name: "healthy", Setup: healthy("fake1").setup},
		{Name: "port_missing", Body: `ofed_versions = { gpfs01 = "23.10-1.1.9.0", gpfs02 = "23.10-1.1.9.0" }`, Setup: bad.setup},
	}, `^ibstat`, `^ibdev2netdev$`, `^ofed_info -s$`, `^hostname; hostname -I$`, `mmlsconfig -Y$`, `mmlscluster$`, `mmfsadm test verbs (status|conns?)$`, `mmdiag --(verbs -Y|network)$`, `^awk -v h=\d+ -v t=\d+ -v n=\d+ -- `, `^systemctl is-active gpfs$`, `mmdiag --config -Y$`, `mmgetstate -Y$`))
}

const versions = `ofed_versions = { gpfs01 = "23.10-1.1.9.0", gpfs02 = "23.10-1.1.9.0", gpfs03 = "23.10-1.1.9.0" }`

func diagnose(t *testing.T, n node, body string) (cause, explanation string, evidence []string) {
	t.Helper()
	f, diags := hclsyntax.ParseConfig([]byte(body), "step.hcl", hcl.InitialPos)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	args, diags := hcldec.Decode(f.Body, New().Spec(), nil)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	h := moduletest.NewFakeHost(n.name)
	n.setup(h)
	resp, err := New().Apply(context.Background(), module.ApplyRequest{Host: h, Args: args})
	if err != nil {
		t.Fatal(err)
	}
	o := resp.Outputs
	for it := o.GetAttr("evidence").ElementIterator(); it.Next(); {
		_, e := it.Element()
		evidence = append(evidence, e.AsString())
	}
	if o.GetAttr("healthy").True() != (o.GetAttr("cause").AsString() == CauseNone) {
		t.Errorf("healthy and cause disagree: %#v", o)
	}
	if len(resp.Checks) != 1 || resp.Changed || resp.Failed {
		t.Errorf("resp = %+v", resp)
	}
	return o.GetAttr("cause").AsString(), o.GetAttr("explanation").AsString(), evidence
}

func TestCauses(t *testing.T) {
	sample := strings.SplitN(string(samples.Read(t, "ibstat/ibstat-mlx4_0-2port-port1-down-polling-port2-active.txt")), "\n", 2)[1]
	closed := string(samples.Read(t, "gpfs/mmfs-log-verbs-rdma-closed-connection-errors.txt"))
	pagepool := string(samples.Strip(samples.Read(t, "gpfs/mmfs-log-verbs-rdma-shutdown-pagepool-not-registered-docs-5.2.3.txt")))
	for _, tc := range []struct {
		name   string
		node   func() node
		body   string
		cause  string
		phrase string
	}{
		{"healthy", func() node { return healthy("gpfs01") }, versions, CauseNone, "gpfs01 reaches all 2 expected peers over RDMA"},
		{"port_missing", func() node {
			n := healthy("gpfs02")
			n.ports, n.connected = "mlx5_0/2 mlx5_1/1", nil
			return n
		}, versions, CausePortMissing, "gpfs02 has no RDMA connection to gpfs01, gpfs03 (TCP fallback): verbsPorts entry mlx5_0/2: mlx5_0 has no port 2 (ports: 1)"},
		{"port_down_sample", func() node {
			n := healthy("gpfs03")
			n.ibstat, n.ports = sample, "mlx4_0/1 mlx4_0/2"
			return n
		}, versions, CausePortDown, "reaches all 2 expected peers over RDMA, but verbsPorts entry mlx4_0/1: port is Down, physical state Polling"},
		{"no_hca", func() node {
			n := healthy("gpfs03")
			n.ibstat, n.connected = "", nil
			return n
		}, ``, CausePortMissing, "mlx5_0/1: the host has no HCA"},
		{"ofed_missing", func() node {
			n := healthy("gpfs03")
			n.ofed, n.connected = "", nil
			return n
		}, ``, CauseOFEDMissing, "OFED is not installed on this node (sh: 1: ofed_info: not found)"},
		{"ofed_mismatch", func() node {
			n := healthy("gpfs02")
			n.ofed, n.connected = "MLNX_OFED_LINUX-5.4-3.1.0.0:\n", nil
			return n
		}, `ofed_versions = { gpfs01 = "23.10-1.1.9.0", gpfs02 = "5.4-3.1.0.0", gpfs03 = "23.10-1.1.9.0" }`, CauseOFEDMismatch,
			"OFED 5.4-3.1.0.0 on this node differs from 23.10-1.1.9.0 on gpfs01, gpfs03"},
		{"peer_with_odd_ofed", func() node {
			n := healthy("gpfs01")
			n.connected = []string{"gpfs03"}
			return n
		}, `ofed_versions = { gpfs01 = "23.10-1.1.9.0", gpfs02 = "5.4-3.1.0.0", gpfs03 = "23.10-1.1.9.0" }`, CausePeerSide,
			"the problem is on the peer side: gpfs02 (OFED 5.4-3.1.0.0)"},
		{"library", func() node {
			n := healthy("gpfs01")
			n.status, n.connected = "VERBS RDMA status: disabled\n", nil
			n.log = "2025-09-12_15:00:58.100+0200: runmmfs starting\n2025-09-12_15:00:59.000+0200: [E] VERBS RDMA library libibverbs.so not found\n"
			return n
		}, versions, CauseLibraryNotLoaded, "the RDMA library could not be loaded (GPFS log: VERBS RDMA library libibverbs.so not found)"},
		{"pagepool_not_registered", func() node {
			n := healthy("gpfs01")
			n.status, n.connected = "VERBS RDMA status: disabled\n", nil
			n.log = "2025-09-12_15:00:58.100+0200: runmmfs starting\n"
			for _, l := range strings.Split(strings.TrimSpace(pagepool), "\n") {
				n.log += "2025-09-12_15:00:59.000+0200: [E] " + l + "\n"
			}
			return n
		}, versions, CausePagepoolNotRegistered, "the pagepool is too large to register with the HCA, so VERBS RDMA shut down: lower pagepool or raise the HCA's MTT limit"},
		{"not_started", func() node {
			n := healthy("gpfs01")
			n.status, n.connected = "VERBS RDMA status: disabled\n", nil
			return n
		}, versions, CauseVerbsNotStarted, `VERBS RDMA is not started (status "disabled", verbsRdma enable for this node)`},
		{"connect_failed", func() node {
			n := healthy("gpfs01")
			n.connected, n.log = nil, closed
			return n
		}, versions, CauseConnectFailed, "check the firewall (connection-setup traffic) and the lossless network (PFC/ECN); GPFS log: VERBS RDMA closed connection to 10.25.80.139 (n139)"},
		{"peer_side", func() node {
			n := healthy("gpfs01")
			n.connected = []string{"gpfs02"}
			return n
		}, versions, CausePeerSide, "gpfs01 has no RDMA connection to gpfs03 (TCP fallback): this node reaches 1 other peer(s) over RDMA, so the problem is on the side of gpfs03"},
		{"missing_from_args", func() node { return healthy("gpfs01") }, versions + "\nmissing = [\"gpfs03\"]", CausePeerSide, "no RDMA connection to gpfs03"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cause, expl, ev := diagnose(t, tc.node(), tc.body)
			if cause != tc.cause || !strings.Contains(expl, tc.phrase) {
				t.Fatalf("cause %s, explanation %q\nwant %s, %q\nevidence:\n%s", cause, expl, tc.cause, tc.phrase, strings.Join(ev, "\n"))
			}
		})
	}
}

func TestEvidenceNamesTheFacts(t *testing.T) {
	n := healthy("gpfs02")
	n.ports, n.connected = "mlx5_0/2 mlx5_1/1", nil
	_, _, ev := diagnose(t, n, versions)
	all := strings.Join(ev, "\n")
	for _, want := range []string{"ibstat: mlx5_0/2 absent", "ibstat: mlx5_1/1 Active/LinkUp", "mmlsconfig: verbsRdma enable, verbsPorts mlx5_0/2 mlx5_1/1",
		"ofed_info -s: 23.10-1.1.9.0", "mmfsadm test verbs status: started", "0 of 2 expected peers connected; missing: gpfs01, gpfs03"} {
		if !strings.Contains(all, want) {
			t.Errorf("evidence lacks %q:\n%s", want, all)
		}
	}
}

func TestParseErrorNamesHost(t *testing.T) {
	n := healthy("gpfs01")
	h := moduletest.NewFakeHost("gpfs01")
	n.setup(h)
	h.Reply(`mmfsadm test verbs status$`, moduletest.Reply{Stdout: "VERBS RDMA status:\n"})
	_, err := New().Apply(context.Background(), module.ApplyRequest{Host: h, Args: cty.ObjectVal(map[string]cty.Value{
		"ofed_versions": cty.NullVal(cty.Map(cty.String)), "missing": cty.NullVal(cty.List(cty.String)),
		"expected": cty.NullVal(cty.List(cty.String)), "log_path": cty.StringVal("/var/adm/ras/mmfs.log.latest"),
	})})
	var pe *parse.Error
	if !errors.As(err, &pe) || pe.Tool != "mmfsadm test verbs status" || pe.Line != 1 || !strings.Contains(err.Error(), "gpfs01") {
		t.Fatalf("err = %v", err)
	}
}

func witnesses(t *testing.T, n node) (agree bool, explanation string, lines []string) {
	t.Helper()
	h := moduletest.NewFakeHost(n.name)
	n.setup(h)
	f, diags := hclsyntax.ParseConfig([]byte(versions), "step.hcl", hcl.InitialPos)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	args, _ := hcldec.Decode(f.Body, New().Spec(), nil)
	resp, err := New().Apply(context.Background(), module.ApplyRequest{Host: h, Args: args})
	if err != nil {
		t.Fatal(err)
	}
	o := resp.Outputs
	for it := o.GetAttr("witnesses").ElementIterator(); it.Next(); {
		_, e := it.Element()
		lines = append(lines, e.AsString())
	}
	return o.GetAttr("witnesses_agree").True(), o.GetAttr("explanation").AsString(), lines
}

func TestWitnesses(t *testing.T) {
	// gpfs01 reaches gpfs02 only; mmdiag --network agrees (TCP to gpfs03,
	// no RDMA row); the log shows gpfs03's connection closed.
	n := healthy("gpfs01")
	n.connected = []string{"gpfs02"}
	n.log += "2025-09-12_15:01:00.000+0200: [I] VERBS RDMA connected to 10.10.1.12 (gpfs02) on mlx5_0 port 1 fabnum 0 sl 0 index 0 cookie 1\n" +
		"2025-09-12_15:01:00.100+0200: [E] VERBS RDMA closed connection to 10.10.1.13 (gpfs03) on mlx5_0 port 1 fabnum 0 index 1 cookie 2 error 233\n"
	agree, expl, lines := witnesses(t, n)
	if !agree || !strings.Contains(expl, "witnesses agree: verbs conn, mmdiag --network, GPFS log") {
		t.Errorf("agree %t: %s\n%s", agree, expl, strings.Join(lines, "\n"))
	}
	if !strings.Contains(strings.Join(lines, "\n"), "mmdiag --network: 1 peer(s) over RDMA, 1 without (gpfs03)") {
		t.Errorf("lines:\n%s", strings.Join(lines, "\n"))
	}

	// mmdiag --network lists an RDMA connection to gpfs03 that verbs conn
	// does not show: they disagree, and the explanation says so.
	n.rdmaRows = []string{"gpfs02", "gpfs03"}
	agree, expl, lines = witnesses(t, n)
	if agree || !strings.Contains(expl, "witnesses disagree (mmdiag --network disagrees with verbs conn: shows an RDMA connection to gpfs03)") {
		t.Errorf("agree %t: %s\n%s", agree, expl, strings.Join(lines, "\n"))
	}

	// The log without the daemon's start cannot witness.
	n = healthy("gpfs01")
	n.log = "2025-09-12_15:01:00.000+0200: [I] Accepted and connected to 10.10.1.12 gpfs02 <c0n1>:[0]\n"
	_, _, lines = witnesses(t, n)
	if !strings.Contains(strings.Join(lines, "\n"), "GPFS log: no opinion: the log read does not show the daemon's start") {
		t.Errorf("lines:\n%s", strings.Join(lines, "\n"))
	}
}

// A GPFS log read in part judges only the peers it logged after the skip,
// and its witness line says so.
func TestLogWitnessReadInPart(t *testing.T) {
	l := gpfscmd.LogSummary{StartFound: true, Skipped: "lines 20001-95000 of 100000 not read: the middle of this daemon run",
		Peers: []gpfs.VerbsPeerLog{{IP: "10.0.0.2", Name: "gpfs02", Connected: 1, LastEvent: gpfs.EventVerbsConnected}}}
	id := func(s string) string { return s }
	w := logWitness(l, []string{"gpfs02", "gpfs03"}, id)
	if !w.Opinion || !w.RDMA["gpfs02"] || w.RDMA["gpfs03"] || w.NoRDMA["gpfs03"] || !strings.Contains(w.Note, "20001-95000") {
		t.Fatalf("witness %+v", w)
	}
	_, lines, _ := compare([]string{"gpfs02", "gpfs03"}, connWitness([]string{"gpfs02", "gpfs03"}, nil), w)
	if got := lines[1]; got != "GPFS log: 1 peer(s) over RDMA, 0 without (none) (lines 20001-95000 of 100000 not read: the middle of this daemon run; only peers logged after them are judged)" {
		t.Errorf("witness line %q", got)
	}
}
