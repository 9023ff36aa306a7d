package gpfsrestart

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hcldec"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/provadev/prova/engine/module"
	"github.com/provadev/prova/engine/module/moduletest"
	"github.com/provadev/prova/internal/testkit/samples"
	"github.com/provadev/prova/modules/internal/gpfscmd/gpfsfake"
)

// cluster is the lab's shape: two quorum nodes that serve the two NSDs
// (primary and backup), with tiebreaker disks, and two clients.
func cluster() *gpfsfake.Cluster {
	return &gpfsfake.Cluster{
		Nodes: []gpfsfake.Node{
			{Name: "gpfs01", IP: "10.10.1.11", Quorum: true}, {Name: "gpfs02", IP: "10.10.1.12", Quorum: true},
			{Name: "gpfs03", IP: "10.10.1.13"}, {Name: "gpfs04", IP: "10.10.1.14"},
		},
		Config:     []gpfsfake.Entry{{Attr: "tiebreakerDisks", Value: "nsd01"}},
		NSDs:       []gpfsfake.NSD{{Name: "nsd01", Servers: []string{"gpfs01", "gpfs02"}}, {Name: "nsd02", Servers: []string{"gpfs02", "gpfs01"}}},
		StartPolls: 1,
	}
}

var probes = []string{`^PATH=\$PATH:/usr/lpp/mmfs/bin mmlscluster$`, `mmlsnsd$`, `mmlsconfig -Y$`, `^cat .*prova-restart\.inflight`}

// admin keeps the mmshutdown/mmstartup events.
func admin(events []string) []string {
	var out []string
	for _, e := range events {
		if strings.HasPrefix(e, "mmshutdown") || strings.HasPrefix(e, "mmstartup") {
			out = append(out, e)
		}
	}
	return out
}

func TestConformance(t *testing.T) {
	moduletest.Run(t, New(), []moduletest.Case{
		{Name: "nothing", Body: `nodes = []`, Setup: cluster().Attach, Probes: probes},
		{
			Name:          "rolling",
			Body:          "nodes = [\"gpfs01\", \"gpfs03.example.com\"]\ninterval = \"1ms\"",
			Setup:         cluster().Attach,
			Probes:        probes,
			NotIdempotent: true,
		},
		{
			Name:          "cluster",
			Body:          "mode = \"cluster\"\nnodes = [\"gpfs02\"]\ninterval = \"1ms\"",
			Setup:         cluster().Attach,
			Probes:        probes,
			NotIdempotent: true,
		},
	})
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
	if d := New().Validate(v); d.HasErrors() {
		t.Fatal(d)
	}
	return v
}

func apply(t *testing.T, h module.Host, body string) module.ApplyResponse {
	t.Helper()
	resp, err := New().Apply(context.Background(), module.ApplyRequest{Host: h, Args: decode(t, body)})
	if err != nil {
		t.Fatal(err)
	}
	return resp
}

// TestRollingKeepsQuorum: quorum nodes go last, one at a time, each only
// after the previous one is active again.
func TestRollingKeepsQuorum(t *testing.T) {
	c := cluster()
	h := moduletest.NewFakeHost("gpfs01")
	c.Attach(h)
	resp := apply(t, h, "nodes = [\"gpfs02\", \"gpfs01\", \"gpfs04\"]\ninterval = \"1ms\"")
	if resp.Failed || !resp.Changed {
		t.Fatalf("resp = %+v", resp)
	}
	want := []string{"mmshutdown -N gpfs04", "mmstartup -N gpfs04", "mmshutdown -N gpfs02", "mmstartup -N gpfs02", "mmshutdown -N gpfs01", "mmstartup -N gpfs01"}
	if got := admin(c.Events()); !slices.Equal(got, want) {
		t.Fatalf("events = %q, want %q", got, want)
	}
	// gpfs01 went down only after gpfs02 was seen active again.
	cmds := strings.Join(h.Commands(), "\n")
	i, j := strings.Index(cmds, "mmstartup -N gpfs02"), strings.Index(cmds, "mmshutdown -N gpfs01")
	if i < 0 || j < i || !strings.Contains(cmds[i:j], "mmgetstate -N gpfs02 -Y") {
		t.Errorf("gpfs01 went down before gpfs02 was seen back:\n%s", cmds)
	}
	o := resp.Outputs
	if got := o.GetAttr("restarted"); got.LengthInt() != 3 || o.GetAttr("states").Index(cty.StringVal("gpfs01")).AsString() != "active" {
		t.Errorf("outputs %#v", o)
	}
	if c.State("gpfs03") != "active" || slices.ContainsFunc(c.Events(), func(e string) bool { return strings.Contains(e, "gpfs03") }) {
		t.Error("gpfs03 was touched")
	}
}

func TestRefusesWhenAnotherQuorumNodeIsDown(t *testing.T) {
	c := cluster()
	h := moduletest.NewFakeHost("gpfs03")
	c.Attach(h)
	c.SetState("gpfs02", "down")
	resp := apply(t, h, "nodes = [\"gpfs01\"]\ninterval = \"1ms\"")
	if !resp.Failed || !strings.Contains(resp.Message, "refusing to restart anything: every quorum node and NSD server must be active first (quorum node gpfs02 is down)") ||
		!strings.Contains(resp.Message, "not restarted (still pending): gpfs01") {
		t.Fatalf("resp = %+v", resp)
	}
	if len(admin(c.Events())) != 0 {
		t.Errorf("events %q", c.Events())
	}
}

func TestTimeoutNamesNodes(t *testing.T) {
	c := cluster()
	c.NeverStarts = []string{"gpfs03"}
	h := moduletest.NewFakeHost("gpfs01")
	c.Attach(h)
	resp := apply(t, h, "nodes = [\"gpfs04\", \"gpfs03\", \"gpfs02\"]\ninterval = \"5ms\"\nmax_wait = \"300ms\"")
	if !resp.Failed || !strings.Contains(resp.Message, "not active after 300ms: gpfs03 is arbitrating; restarted before: gpfs04; not restarted (still pending): gpfs02") {
		t.Fatalf("resp = %+v", resp)
	}
	if slices.Contains(c.Events(), "mmshutdown -N gpfs02") {
		t.Error("the rolling restart went on after a node did not come back")
	}
	c2 := cluster()
	c2.NeverStarts = []string{"gpfs02", "gpfs04"}
	h2 := moduletest.NewFakeHost("gpfs01")
	c2.Attach(h2)
	resp = apply(t, h2, "mode = \"cluster\"\nnodes = [\"gpfs01\"]\ninterval = \"5ms\"\nmax_wait = \"300ms\"")
	if !resp.Failed || !strings.Contains(resp.Message, "gpfs02 is arbitrating, gpfs04 is arbitrating") {
		t.Fatalf("cluster resp = %+v", resp)
	}
}

func TestUnknownNodeRestartsNothing(t *testing.T) {
	c := cluster()
	h := moduletest.NewFakeHost("gpfs01")
	c.Attach(h)
	_, err := New().Plan(context.Background(), module.PlanRequest{Host: h, Args: decode(t, `nodes = ["gpfs09"]`)})
	if err == nil || !strings.Contains(err.Error(), "not GPFS nodes: gpfs09") {
		t.Fatalf("Plan: %v", err)
	}
	if _, err := New().Apply(context.Background(), module.ApplyRequest{Host: h, Args: decode(t, `nodes = ["gpfs09"]`)}); err == nil || len(admin(c.Events())) != 0 {
		t.Fatalf("Apply: %v, events %q", err, c.Events())
	}
}

// TestSampleOutputs feeds the real mmshutdown, mmstartup and mmgetstate -Y
// samples as replies.
func TestSampleOutputs(t *testing.T) {
	for _, tc := range []struct {
		mode, node, shutdown, startup string
	}{
		{"rolling", "node001", "gpfs/mmshutdown-N-single-node-ok-cherub-fixture.txt", "gpfs/mmstartup-a-and-mmgetstate-aL-active.txt"},
		{"rolling", "node001", "gpfs/mmshutdown-N-device-busy-cherub-fixture.txt", "gpfs/mmstartup-a-then-mmfslog-then-mmgetstate-active-4.2.3.txt"},
		{"cluster", "node001", "gpfs/mmshutdown-a-2-nodes-4.2-el7.txt", "gpfs/mmstartup-a-and-mmgetstate-aL-active.txt"},
		{"cluster", "node001", "gpfs/mmshutdown-a-3-nodes-tracedev-el6.txt", "gpfs/mmchconfig-tiebreakerDisks-and-mmstartup-2023.txt"},
	} {
		h := moduletest.NewFakeHost("admin")
		// a client node: the restart is about the command outputs, not quorum
		h.Reply(`mmlscluster$`, moduletest.Reply{Stdout: "GPFS cluster information\n========================\n  GPFS cluster name:         x\n\n Node  Daemon node name  IP address  Admin node name  Designation\n-----\n   1   " + tc.node + "  10.1.1.1  " + tc.node + "\n"})
		h.Reply(`mmlsnsd$`, moduletest.Reply{RC: 1, Stderr: "mmlsnsd: No disks were found.\n"})
		h.Reply(`mmlsmount all -L$`, moduletest.Reply{RC: 1, Stderr: "mmlsmount: No file systems were found.\n"})
		h.Reply(`mmlsconfig -Y$`, moduletest.Reply{Stdout: "mmlsconfig::HEADER:version:reserved:reserved:configParameter:value:nodeList:\n"})
		h.Reply(`prova-restart\.inflight`, moduletest.Reply{})
		h.Reply(`mmshutdown`, moduletest.Reply{Stdout: segment(t, tc.shutdown, "mmshutdown")})
		h.Reply(`mmstartup`, moduletest.Reply{Stdout: segment(t, tc.startup, "mmstartup")})
		h.Reply(`mmgetstate`, moduletest.Reply{Stdout: strings.ReplaceAll(string(samples.Read(t, "gpfs/mmgetstate-Y-active.txt")), "ib-proj-nsd05.domain", tc.node)})
		resp := apply(t, h, "mode = \""+tc.mode+"\"\nnodes = [\""+tc.node+"\"]\ninterval = \"1ms\"")
		if resp.Failed || resp.Outputs.GetAttr("restarted").LengthInt() != 1 {
			t.Errorf("%s / %s: resp = %+v", tc.shutdown, tc.startup, resp)
		}
	}
}

// segment returns the output of the pasted command starting with prefix in
// a sample (the whole sample when it has no prompt lines).
func segment(t *testing.T, rel, prefix string) string {
	t.Helper()
	var b strings.Builder
	in, prompts := false, false
	for _, l := range strings.Split(string(samples.Read(t, rel)), "\n") {
		s := strings.TrimSpace(l)
		cmd := strings.TrimSpace(s[strings.LastIndexAny(s, "#]")+1:])
		if strings.HasPrefix(s, "[root@") || strings.HasPrefix(s, "# ") || s == "mmstartup -a" {
			prompts = true
			in = strings.HasPrefix(cmd, prefix) || strings.HasPrefix(s, prefix)
			continue
		}
		if in || !prompts {
			b.WriteString(s + "\n")
		}
	}
	return b.String()
}

func TestAdminFailure(t *testing.T) {
	c := cluster()
	h := moduletest.NewFakeHost("gpfs01")
	c.Attach(h)
	h.Reply(`mmstartup`, moduletest.Reply{RC: 1, Stderr: "mmstartup: Command failed. Examine previous error messages to determine cause.\n"})
	resp := apply(t, h, "nodes = [\"gpfs03\"]\ninterval = \"1ms\"")
	if !resp.Failed || !resp.Changed || !strings.Contains(resp.Message, "mmstartup -N gpfs03 on gpfs01 exited 1: mmstartup: Command failed.") {
		t.Fatalf("resp = %+v", resp)
	}
}

func TestValidate(t *testing.T) {
	for src, want := range map[string]string{`mode = "all"`: "Invalid mode", `max_wait = "soon"`: "Invalid duration", `interval = "0s"`: "Invalid duration"} {
		f, _ := hclsyntax.ParseConfig([]byte(src), "s.hcl", hcl.InitialPos)
		v, _ := hcldec.Decode(f.Body, New().Spec(), nil)
		if d := New().Validate(v); !strings.Contains(d.Error(), want) {
			t.Errorf("%s: %v", src, d)
		}
	}
}

// big is 4 NSD servers (3 of them quorum, tiebreaker disks off), NSDs
// served by neighbours round the ring, and n clients.
func big(n int) (*gpfsfake.Cluster, []string) {
	c := &gpfsfake.Cluster{StartPolls: 1}
	var names []string
	for i := 1; i <= 4; i++ {
		name := fmt.Sprintf("nsd%d", i)
		c.Nodes = append(c.Nodes, gpfsfake.Node{Name: name, IP: fmt.Sprintf("10.1.0.%d", i), Quorum: i <= 3})
		c.NSDs = append(c.NSDs, gpfsfake.NSD{Name: fmt.Sprintf("d%d", i), Servers: []string{name, fmt.Sprintf("nsd%d", i%4+1)}})
		names = append(names, name)
	}
	for i := 1; i <= n; i++ {
		name := fmt.Sprintf("c%03d", i)
		c.Nodes = append(c.Nodes, gpfsfake.Node{Name: name, IP: fmt.Sprintf("10.2.%d.%d", i/200, i%200+1)})
		names = append(names, name)
	}
	return c, names
}

func hclList(names []string) string { return `["` + strings.Join(names, `", "`) + `"]` }

// waveNodes returns the nodes of each "mmshutdown -N a,b" event.
func waveNodes(events []string) [][]string {
	var out [][]string
	for _, e := range events {
		if rest, ok := strings.CutPrefix(e, "mmshutdown -N "); ok {
			out = append(out, strings.Split(rest, ","))
		}
	}
	return out
}

// 100 clients restart in waves of 20; the NSD servers never go down two
// of one NSD at once, nor two quorum nodes (3 quorum nodes keep a
// majority with one down); the plan names the waves and the estimate.
func TestHundredClientsInWaves(t *testing.T) {
	c, names := big(100)
	h := moduletest.NewFakeHost("nsd1")
	c.Attach(h)
	body := "nodes = " + hclList(names) + "\nbatch = 20\ninterval = \"1ms\"\nrestart_estimate = \"90s\""
	p, err := New().Plan(context.Background(), module.PlanRequest{Host: h, Args: decode(t, body)})
	if err != nil || !strings.Contains(p.Summary, "rolling restart of 104 nodes in 8 waves, estimated 12m0s (1m30s per wave): wave 1: c001, ") {
		t.Fatalf("plan: %v\n%s", err, p.Summary)
	}
	resp := apply(t, h, body)
	if resp.Failed || resp.Outputs.GetAttr("restarted").LengthInt() != 104 {
		t.Fatalf("resp = %+v", resp)
	}
	waves := waveNodes(c.Events())
	if len(waves) != 8 {
		t.Fatalf("%d waves: %q", len(waves), waves)
	}
	for i := 0; i < 5; i++ {
		if len(waves[i]) != 20 || !strings.HasPrefix(waves[i][0], "c") {
			t.Errorf("wave %d: %q", i+1, waves[i])
		}
	}
	for _, w := range waves {
		q := 0
		for _, d := range c.NSDs {
			if slices.Contains(w, d.Servers[0]) && slices.Contains(w, d.Servers[1]) {
				t.Errorf("wave %q takes both servers of %s down", w, d.Name)
			}
		}
		for _, n := range w {
			if n == "nsd1" || n == "nsd2" || n == "nsd3" {
				q++
			}
		}
		if q > 1 {
			t.Errorf("wave %q takes %d quorum nodes down", w, q)
		}
	}
}

// A client that does not come back stops the rollout: no further wave,
// the step fails naming it, the nodes not restarted are pending.
func TestNodeThatStaysDownHaltsTheRollout(t *testing.T) {
	c, names := big(20)
	c.NeverStarts = []string{"c007"}
	h := moduletest.NewFakeHost("nsd1")
	c.Attach(h)
	resp := apply(t, h, "nodes = "+hclList(names)+"\nbatch = 5\ninterval = \"2ms\"\nmax_wait = \"300ms\"")
	if !resp.Failed || !strings.Contains(resp.Message, "not active after 300ms: c007 is arbitrating; restarted before: c001, c002, c003, c004, c005") {
		t.Fatalf("resp = %+v", resp)
	}
	if got := len(waveNodes(c.Events())); got != 2 {
		t.Errorf("%d waves started, want 2", got)
	}
	pending := resp.Outputs.GetAttr("pending")
	if pending.LengthInt() != 14 || pending.Index(cty.NumberIntVal(0)).AsString() != "c011" {
		t.Errorf("pending %#v", pending)
	}
	if !strings.Contains(c.Marker(), "node=c007") {
		t.Errorf("the marker must still name the wave that did not come back: %q", c.Marker())
	}
}

// A wave is back only when its nodes have their file system mounted again.
func TestWaveWaitsForTheMount(t *testing.T) {
	c := cluster()
	c.NeverMounts = []string{"gpfs03"}
	h := moduletest.NewFakeHost("gpfs01")
	c.Attach(h)
	c.NeverMounts = nil
	resp := apply(t, h, "nodes = [\"gpfs03\", \"gpfs04\"]\ninterval = \"2ms\"\nmax_wait = \"300ms\"")
	if resp.Failed {
		t.Fatalf("before: gpfs03 had nothing mounted, so nothing to wait for: %+v", resp)
	}
	c2 := cluster()
	h2 := moduletest.NewFakeHost("gpfs01")
	c2.Attach(h2)
	c2.AfterAdmin = func(w []string) {
		if w[0] == "mmstartup" {
			c2.NeverMounts = []string{"gpfs03"}
		}
	}
	resp = apply(t, h2, "nodes = [\"gpfs03\", \"gpfs04\"]\ninterval = \"2ms\"\nmax_wait = \"300ms\"")
	if !resp.Failed || !strings.Contains(resp.Message, "gpfs03 is active, gpfs0 not mounted") {
		t.Fatalf("resp = %+v", resp)
	}
}

// Ctrl-C just after mmshutdown: the node in flight is started and waited
// for before the step returns; the record's restarted list names it.
func TestInterruptFinishesTheNodeInFlight(t *testing.T) {
	c := cluster()
	h := moduletest.NewFakeHost("gpfs01")
	c.Attach(h)
	ctx, cancel := context.WithCancel(context.Background())
	c.AfterAdmin = func(w []string) {
		if w[0] == "mmshutdown" {
			cancel()
		}
	}
	resp, err := New().Apply(ctx, module.ApplyRequest{Host: h, Args: decode(t, "nodes = [\"gpfs04\", \"gpfs03\"]\ninterval = \"1ms\"\nbatch = 1")})
	if err != nil {
		t.Fatal(err)
	}
	if !resp.Failed || !strings.Contains(resp.Message, "interrupted; the restart in flight was finished first: gpfs04 active again; not restarted (still pending): gpfs03") {
		t.Fatalf("resp = %+v", resp)
	}
	if c.State("gpfs04") != "active" || c.Marker() != "" {
		t.Errorf("gpfs04 %s, marker %q", c.State("gpfs04"), c.Marker())
	}
	if got := resp.Outputs.GetAttr("restarted"); got.LengthInt() != 1 || got.Index(cty.NumberIntVal(0)).AsString() != "gpfs04" {
		t.Errorf("restarted %#v", got)
	}
	if slices.Contains(c.Events(), "mmshutdown -N gpfs03") {
		t.Error("a node after the interrupt went down")
	}
}

// After a kill -9 between mmshutdown and mmstartup, the marker names the
// node: the next run (even with nothing else pending) starts it first,
// and the plan says so.
func TestNodeLeftDownIsStartedFirst(t *testing.T) {
	c := cluster()
	c.Down = []string{"gpfs02"} // a quorum node: the cluster would otherwise be refused as unhealthy
	h := moduletest.NewFakeHost("gpfs01")
	c.Attach(h)
	c.SetMarker("node=gpfs02\n")
	p, err := New().Plan(context.Background(), module.PlanRequest{Host: h, Args: decode(t, `nodes = []`)})
	if err != nil || p.Action != module.Change || !strings.Contains(p.Summary, "first start gpfs02 (left down by an interrupted restart)") {
		t.Fatalf("plan %+v %v", p, err)
	}
	resp := apply(t, h, "nodes = [\"gpfs02\", \"gpfs04\"]\ninterval = \"1ms\"")
	if resp.Failed || c.State("gpfs02") != "active" || c.Marker() != "" {
		t.Fatalf("resp = %+v, gpfs02 %s, marker %q", resp, c.State("gpfs02"), c.Marker())
	}
	if got := admin(c.Events()); !slices.Equal(got, []string{"mmstartup -N gpfs02", "mmshutdown -N gpfs04", "mmstartup -N gpfs04"}) {
		t.Errorf("events %q", got)
	}
	if !strings.Contains(resp.Message, "gpfs02 left down by an interrupted run, started first") {
		t.Errorf("message %q", resp.Message)
	}
}

// Two quorum nodes without tiebreaker disks: no quorum node can go down.
func TestTwoQuorumNodesWithoutTiebreakerRefused(t *testing.T) {
	c := cluster()
	c.Config = nil
	h := moduletest.NewFakeHost("gpfs01")
	c.Attach(h)
	_, err := New().Plan(context.Background(), module.PlanRequest{Host: h, Args: decode(t, `nodes = ["gpfs01"]`)})
	if err == nil || !strings.Contains(err.Error(), "quorum node gpfs01 cannot restart without losing quorum: 2 quorum nodes and no tiebreaker disks") {
		t.Fatalf("%v", err)
	}
}
