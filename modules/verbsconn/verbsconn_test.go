package verbsconn

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
	"github.com/provadev/prova/parse"
)

const (
	connCmd    = `mmfsadm test verbs conn$`
	clusterCmd = `mmlscluster$`
)

// cluster returns the mmlscluster sample (7 nodes, gpfs01 and gpfs02
// quorum-manager) without the prompt and the author's "#output" line.
func cluster(t *testing.T) string {
	t.Helper()
	var b strings.Builder
	for _, l := range strings.Split(string(samples.Read(t, "gpfs/mmlscluster-ccr-7-nodes.txt")), "\n") {
		if s := strings.TrimSpace(l); strings.HasPrefix(s, "[root@") || s == "#output" {
			continue
		}
		b.WriteString(l + "\n")
	}
	return b.String()
}

var ips = map[string]string{"gpfs01": "10.25.80.15", "gpfs02": "10.25.80.16", "n131": "10.25.80.131", "n095": "10.25.80.95",
	"master": "10.25.80.11", "login01": "10.25.80.12", "login02": "10.25.80.13"}

// conn prints verbs conn output (docs/gpfs-verbs-conn.md) with one row per
// "name=state" (name "ip:X" for a row without a name).
func conn(rows ...string) string {
	var b strings.Builder
	b.WriteString("RDMA Connections between nodes:\n  destination      hostname          state        device  port  qps  idx  cookie\n")
	for i, r := range rows {
		name, state, _ := strings.Cut(r, "=")
		ip := ips[name]
		if strings.HasPrefix(name, "ip:") {
			ip, name = strings.TrimPrefix(name, "ip:"), "-"
		}
		fmt.Fprintf(&b, "  %-16s %-17s %-12s mlx5_0  1     2    %d    %d\n", ip, name, state, i, 17+i)
	}
	return b.String()
}

func setup(t *testing.T, verbs string) func(*moduletest.FakeHost) {
	cl := cluster(t)
	return func(h *moduletest.FakeHost) {
		h.Reply(connCmd, moduletest.Reply{Stdout: verbs})
		h.Reply(clusterCmd, moduletest.Reply{Stdout: cl})
		h.Reply(`^hostname; hostname -I$`, moduletest.Reply{Stdout: "client7\n10.0.0.7 10.25.80.16\n"})
	}
}

var all = []string{"gpfs02=connected", "n131=connected", "n095=connected", "master=connected", "login01=connected", "login02=connected"}

func TestConformance(t *testing.T) {
	moduletest.Run(t, New(), moduletest.WithProbes([]moduletest.Case{
		{Name: "all_connected", Setup: setup(t, conn(all...))},
		{Name: "expected_subset", Body: `expected = ["gpfs02.example.com", "10.25.80.131"]`, Setup: setup(t, conn("gpfs02=connected"))},
	}, `^hostname; hostname -I$`, `mmlscluster$`, `mmfsadm test verbs (status|conns?)$`, `mmdiag --(verbs -Y|network)$`, `mmlsconfig -Y$`))
}

func decode(t *testing.T, src string) cty.Value {
	t.Helper()
	f, diags := hclsyntax.ParseConfig([]byte(src), "step.hcl", hcl.InitialPos)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	v, diags := hcldec.Decode(f.Body, New().Spec(), nil)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	return v
}

// result is the outputs as text: counts, lists joined with commas, the
// missing states as peer=state in the order of missing.
type result struct{ node, expected, rdma, missing, unexpected, states string }

func run(t *testing.T, host, verbs, body string) (result, module.ApplyResponse) {
	t.Helper()
	h := moduletest.NewFakeHost(host)
	setup(t, verbs)(h)
	resp, err := New().Apply(context.Background(), module.ApplyRequest{Host: h, Args: decode(t, body)})
	if err != nil {
		t.Fatal(err)
	}
	j := func(name string) string {
		var s []string
		for it := resp.Outputs.GetAttr(name).ElementIterator(); it.Next(); {
			_, v := it.Element()
			s = append(s, v.AsString())
		}
		return strings.Join(s, ",")
	}
	n := func(name string) string { return resp.Outputs.GetAttr(name).AsBigFloat().Text('f', -1) }
	var states []string
	st := resp.Outputs.GetAttr("missing_state")
	for _, p := range strings.Split(j("missing"), ",") {
		if p != "" {
			states = append(states, p+"="+st.Index(cty.StringVal(p)).AsString())
		}
	}
	if st.LengthInt() != len(states) {
		t.Errorf("missing_state %#v does not hold exactly the missing peers", st)
	}
	return result{resp.Outputs.GetAttr("node").AsString(), n("expected_count"), n("rdma_count"), j("missing"), j("unexpected"), strings.Join(states, ",")}, resp
}

func TestSilentFallback(t *testing.T) {
	rows := []string{"gpfs02=connected", "n131=connecting", "ip:10.25.80.95=connected", "master=disconnected", "login01=connected", "ip:10.25.80.99=connected"}
	got, resp := run(t, "gpfs01", conn(rows...), ``)
	want := result{"gpfs01", "6", "3", "n131,master,login02", "10.25.80.99", "n131=connecting,master=disconnected,login02=no entry"}
	if got != want {
		t.Fatalf("got %+v\nwant %+v", got, want)
	}
	if c := resp.Checks[0]; c.Verdict != "fail" || c.Measured != "3/6" || !strings.Contains(c.Message, "gpfs01 has no RDMA connection to n131, master, login02") {
		t.Errorf("check %+v", c)
	}
}

func TestVerbsDisabledMissesEveryone(t *testing.T) {
	got, _ := run(t, "gpfs01", "VERBS RDMA status: disabled\n", ``)
	if got.rdma != "0" || got.missing != "gpfs02,n131,n095,master,login01,login02" {
		t.Fatalf("got %+v", got)
	}
}

func TestLocalNodeByAddress(t *testing.T) {
	// The inventory calls the host client7; hostname -I has gpfs02's address.
	got, _ := run(t, "client7", conn("gpfs01=connected", "n131=connected"), `expected = ["gpfs01", "gpfs02", "n131"]`)
	if got.node != "gpfs02" || got.expected != "2" || got.missing != "" {
		t.Fatalf("got %+v", got)
	}
}

func TestDaemonDownAndErrors(t *testing.T) {
	h := moduletest.NewFakeHost("gpfs01")
	setup(t, "")(h)
	h.Reply(connCmd, moduletest.Reply{RC: 1, Stderr: "mmfsadm: The GPFS daemon is not running\n"})
	resp, err := New().Apply(context.Background(), module.ApplyRequest{Host: h, Args: decode(t, ``)})
	if err != nil || resp.Outputs.GetAttr("missing").LengthInt() != 6 || !strings.Contains(resp.Message, "daemon is not running") {
		t.Fatalf("resp %+v, err %v", resp, err)
	}
	h.Reply(connCmd, moduletest.Reply{Stdout: "RDMA Connections between nodes:\n  destination hostname state\n  not-an-ip x connected\n"})
	_, err = New().Apply(context.Background(), module.ApplyRequest{Host: h, Args: decode(t, ``)})
	var pe *parse.Error
	if !errors.As(err, &pe) || pe.Tool != "mmfsadm test verbs conn" || pe.Line != 3 || !strings.Contains(err.Error(), "gpfs01") {
		t.Fatalf("err = %v", err)
	}
}

// An output prova cannot read is never "TCP fallback": the step fails with
// a message naming the command, the host and the line, and points at
// prova collect.
func TestUnreadableIsNotFallback(t *testing.T) {
	h := moduletest.NewFakeHost("gpfs07")
	setup(t, "")(h)
	h.Reply(connCmd, moduletest.Reply{Stdout: "RDMA Connections between nodes:\n\n  [0] 10.25.80.16 gpfs02 qp=0x1a2 RTS\n"})
	resp, err := New().Apply(context.Background(), module.ApplyRequest{Host: h, Args: decode(t, ``)})
	want := "prova could not read `mmfsadm test verbs conn` on gpfs07, line 3: "
	if err == nil || !strings.HasPrefix(err.Error(), want) || !strings.Contains(err.Error(), "prova collect") ||
		strings.Contains(err.Error(), "TCP fallback)") || resp.Message != "" {
		t.Fatalf("err = %v\nresp %+v", err, resp)
	}
	// Cut mid-row: the same, naming the cut line.
	h.Reply(connCmd, moduletest.Reply{Stdout: strings.TrimSuffix(conn("gpfs02=connected", "n131=connected"), "\n")[:150]})
	_, err = New().Apply(context.Background(), module.ApplyRequest{Host: h, Args: decode(t, ``)})
	if err == nil || !strings.Contains(err.Error(), "on gpfs07, line 3: the output ends in the middle of this line") {
		t.Fatalf("cut: err = %v", err)
	}
}

// "conn" answered by a usage message: prova tries "conns".
func TestConnsSpelling(t *testing.T) {
	h := moduletest.NewFakeHost("gpfs01")
	setup(t, "")(h)
	h.Reply(connCmd, moduletest.Reply{RC: 1, Stderr: "Usage: mmfsadm test verbs {status|conns|...}\n"})
	h.Reply(`mmfsadm test verbs conns$`, moduletest.Reply{Stdout: conn(all...)})
	resp, err := New().Apply(context.Background(), module.ApplyRequest{Host: h, Args: decode(t, ``)})
	if err != nil || resp.Outputs.GetAttr("missing").LengthInt() != 0 || resp.Evidence["mmfsadm test verbs conns"] == "" {
		t.Fatalf("resp %+v, err %v", resp, err)
	}
	h.Reply(`mmfsadm test verbs conns$`, moduletest.Reply{RC: 1, Stderr: "Usage: mmfsadm test verbs {status}\n"})
	if _, err := New().Apply(context.Background(), module.ApplyRequest{Host: h, Args: decode(t, ``)}); err == nil || !strings.Contains(err.Error(), "knows neither") {
		t.Fatalf("err = %v", err)
	}
}

const tcpTable = "\n=== mmdiag: network ===\n\nPending messages:\n  (none)\nTCP Connections between nodes:\n" +
	"    hostname                            node     idx destination     status     err  sock  sent(MB)  recvd(MB) ostype\n" +
	"    gpfs02                              <c0n1>     0 10.25.80.16     connected  0    20    0         0          Linux/L\n"

// Nothing printed while VERBS RDMA is started and the node talks TCP to
// peers is reported as such, not as zero RDMA connections.
func TestEmptyWhileStarted(t *testing.T) {
	h := moduletest.NewFakeHost("gpfs01")
	setup(t, "")(h)
	h.Reply(`mmfsadm test verbs status$`, moduletest.Reply{Stdout: "VERBS RDMA status: started\n"})
	h.Reply(`mmdiag --network$`, moduletest.Reply{Stdout: tcpTable})
	_, err := New().Apply(context.Background(), module.ApplyRequest{Host: h, Args: decode(t, ``)})
	if err == nil || !strings.Contains(err.Error(), "printed nothing on gpfs01 although VERBS RDMA is started and mmdiag --network shows TCP connections to 1 peer(s) (gpfs02)") {
		t.Fatalf("err = %v", err)
	}
	// RDMA not started: nothing printed is believable, every peer missing.
	h.Reply(`mmfsadm test verbs status$`, moduletest.Reply{Stdout: "VERBS RDMA status: disabled\n"})
	resp, err := New().Apply(context.Background(), module.ApplyRequest{Host: h, Args: decode(t, ``)})
	if err != nil || resp.Outputs.GetAttr("missing").LengthInt() != 6 {
		t.Fatalf("resp %+v, err %v", resp, err)
	}
}

// A row matches a peer by any name or address mmlscluster gives.
func TestMatchByEveryName(t *testing.T) {
	in := "RDMA Connections between nodes:\n  node              state\n  GPFS02.example.com  connected\n  10.25.80.131      connected\n  n095.example.com  connected\n"
	got, _ := run(t, "gpfs01", in, `expected = ["gpfs02", "n131", "10.25.80.95"]`)
	if got.rdma != "3" || got.missing != "" {
		t.Fatalf("got %+v", got)
	}
}

// Where mmdiag --verbs -Y prints a connection table (Storage Scale 6.0.1;
// the layout here is unverified, no public sample), it is preferred.
func TestPrefersMmdiagVerbsY(t *testing.T) {
	h := moduletest.NewFakeHost("gpfs01")
	setup(t, "")(h)
	h.Reply(connCmd, moduletest.Reply{Stdout: "must not be read\n"})
	y := "mmdiag:verbsConn:HEADER:version:reserved:reserved:destination:hostname:state:\n"
	for _, p := range []string{"gpfs02", "n131", "n095", "master", "login01"} {
		y += "mmdiag:verbsConn:0:1:::" + ips[p] + ":" + p + ":RTS:\n"
	}
	h.Reply(`mmdiag --verbs -Y$`, moduletest.Reply{Stdout: y})
	got, err := func() (result, error) {
		resp, err := New().Apply(context.Background(), module.ApplyRequest{Host: h, Args: decode(t, ``)})
		if err != nil {
			return result{}, err
		}
		if resp.Evidence["mmdiag --verbs -Y"] == "" {
			t.Errorf("evidence %v", resp.Evidence)
		}
		var miss []string
		for it := resp.Outputs.GetAttr("missing").ElementIterator(); it.Next(); {
			_, v := it.Element()
			miss = append(miss, v.AsString())
		}
		return result{missing: strings.Join(miss, ",")}, nil
	}()
	if err != nil || got.missing != "login02" {
		t.Fatalf("missing %q, err %v", got.missing, err)
	}
	// -Y without a connection table: mmfsadm is asked.
	h.Reply(`mmdiag --verbs -Y$`, moduletest.Reply{Stdout: "mmdiag:verbsInfo:HEADER:version:reserved:reserved:status:\nmmdiag:verbsInfo:0:1:::started:\n"})
	h.Reply(connCmd, moduletest.Reply{Stdout: conn(all...)})
	if resp, err := New().Apply(context.Background(), module.ApplyRequest{Host: h, Args: decode(t, ``)}); err != nil || resp.Outputs.GetAttr("missing").LengthInt() != 0 {
		t.Fatalf("fallback: %+v %v", resp, err)
	}
	// Malformed -Y output is unreadable, not fallback.
	h.Reply(`mmdiag --verbs -Y$`, moduletest.Reply{Stdout: "mmdiag:verbsConn:0:1:::10.0.0.2:x:RTS:\n"})
	if _, err := New().Apply(context.Background(), module.ApplyRequest{Host: h, Args: decode(t, ``)}); err == nil || !strings.Contains(err.Error(), "prova could not read `mmdiag --verbs -Y` on gpfs01, line 1") {
		t.Fatalf("err = %v", err)
	}
}
