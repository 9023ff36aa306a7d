package gpfsrestart

import (
	"context"
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

func cluster() *gpfsfake.Cluster {
	return &gpfsfake.Cluster{
		Nodes: []gpfsfake.Node{
			{Name: "gpfs01", IP: "10.10.1.11", Quorum: true}, {Name: "gpfs02", IP: "10.10.1.12", Quorum: true},
			{Name: "gpfs03", IP: "10.10.1.13"}, {Name: "gpfs04", IP: "10.10.1.14"},
		},
		StartPolls: 1,
	}
}

var probes = []string{`^PATH=\$PATH:/usr/lpp/mmfs/bin mmlscluster$`}

func TestConformance(t *testing.T) {
	moduletest.Run(t, New(), []moduletest.Case{
		{Name: "nothing", Body: `nodes = []`, Setup: cluster().Attach},
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
	if got := c.Events(); !slices.Equal(got, want) {
		t.Fatalf("events = %q, want %q", got, want)
	}
	// Every shutdown of a quorum node came after the other quorum node was
	// seen active (mmgetstate -N with the other quorum node).
	cmds := h.Commands()
	for i, cmd := range cmds {
		if strings.HasSuffix(cmd, "mmshutdown -N gpfs01") && !strings.HasSuffix(cmds[i-1], "mmgetstate -N gpfs02 -Y") {
			t.Errorf("gpfs01 went down after %q", cmds[i-1])
		}
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
	if !resp.Failed || !strings.Contains(resp.Message, "refusing to take quorum node gpfs01 down while another quorum node is not active (gpfs02 is down)") {
		t.Fatalf("resp = %+v", resp)
	}
	if len(c.Events()) != 0 {
		t.Errorf("events %q", c.Events())
	}
}

func TestTimeoutNamesNodes(t *testing.T) {
	c := cluster()
	c.NeverStarts = []string{"gpfs03"}
	h := moduletest.NewFakeHost("gpfs01")
	c.Attach(h)
	resp := apply(t, h, "nodes = [\"gpfs04\", \"gpfs03\", \"gpfs02\"]\ninterval = \"5ms\"\nmax_wait = \"60ms\"")
	if !resp.Failed || !strings.Contains(resp.Message, "not active after 60ms: gpfs03 is arbitrating; restarted before: gpfs04") {
		t.Fatalf("resp = %+v", resp)
	}
	if slices.Contains(c.Events(), "mmshutdown -N gpfs02") {
		t.Error("the rolling restart went on after a node did not come back")
	}
	c2 := cluster()
	c2.NeverStarts = []string{"gpfs02", "gpfs04"}
	h2 := moduletest.NewFakeHost("gpfs01")
	c2.Attach(h2)
	resp = apply(t, h2, "mode = \"cluster\"\nnodes = [\"gpfs01\"]\ninterval = \"5ms\"\nmax_wait = \"40ms\"")
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
	if _, err := New().Apply(context.Background(), module.ApplyRequest{Host: h, Args: decode(t, `nodes = ["gpfs09"]`)}); err == nil || len(c.Events()) != 0 {
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
		h.Reply(`mmlscluster$`, moduletest.Reply{Stdout: "GPFS cluster information\n========================\n  GPFS cluster name:         x\n\n Node  Daemon node name  IP address  Admin node name  Designation\n-----\n   1   " + tc.node + "  10.1.1.1  " + tc.node + "  quorum\n"})
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
