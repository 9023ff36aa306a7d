package gpfsconfig

import (
	"context"
	"errors"
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
	"github.com/provadev/prova/parse"
)

func cluster(cfg ...gpfsfake.Entry) *gpfsfake.Cluster {
	return &gpfsfake.Cluster{
		Nodes:  []gpfsfake.Node{{Name: "gpfs01", IP: "10.10.1.11", Quorum: true}, {Name: "gpfs02", IP: "10.10.1.12"}},
		Config: cfg,
	}
}

var base = []gpfsfake.Entry{{Attr: "verbsRdma", Value: "enable"}, {Attr: "verbsPorts", Value: "mlx5_0/1 mlx5_1/1"}, {Attr: "pagepool", Value: "4G"}}

func TestConformance(t *testing.T) {
	moduletest.Run(t, New(), moduletest.WithProbes([]moduletest.Case{
		{Name: "in_effect", Setup: cluster(base...).Attach},
		{Name: "pending", Setup: func(h *moduletest.FakeHost) {
			c := cluster()
			c.Attach(h)
			for _, e := range base {
				c.Change(e.Attr, e.Value)
			}
		}},
		{Name: "daemon_down", Body: `attributes = ["verbsRdma"]`, Setup: func(h *moduletest.FakeHost) {
			c := cluster(base...)
			c.Attach(h)
			c.SetState("fake1", "down")
		}},
	}, `mmlsconfig -Y$`, `mmdiag --config -Y$`, `^hostname; hostname -I$`, `mmlscluster$`, `^systemctl is-active gpfs$`, `mmgetstate -Y$`))
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

func run(t *testing.T, h module.Host, body string) module.ApplyResponse {
	t.Helper()
	resp, err := New().Apply(context.Background(), module.ApplyRequest{Host: h, Args: decode(t, body)})
	if err != nil {
		t.Fatal(err)
	}
	return resp
}

func list(v cty.Value) []string {
	var out []string
	for it := v.ElementIterator(); it.Next(); {
		_, e := it.Element()
		out = append(out, e.AsString())
	}
	return out
}

func TestPendingUntilRestart(t *testing.T) {
	c := cluster(gpfsfake.Entry{Attr: "pagepool", Value: "4G"})
	h := moduletest.NewFakeHost("gpfs01")
	c.Attach(h)
	c.Change("verbsRdma", "enable")
	c.Change("verbsPorts", "mlx5_0/1")
	resp := run(t, h, ``)
	o := resp.Outputs
	if got := list(o.GetAttr("pending")); !slices.Equal(got, []string{"verbsRdma", "verbsPorts"}) || !o.GetAttr("restart_pending").True() {
		t.Fatalf("pending = %q, outputs %#v", got, o)
	}
	if o.GetAttr("effective").Index(cty.StringVal("pagepool")).AsString() != "4294967296" ||
		o.GetAttr("configured").Index(cty.StringVal("verbsRdmaSend")).AsString() != "no" {
		t.Errorf("outputs %#v", o)
	}
	if !strings.Contains(resp.Message, `verbsRdma configured "enable", effective "disable"`) {
		t.Errorf("message %q", resp.Message)
	}
	// A restart makes the configuration effective.
	for _, cmd := range []string{"mmshutdown -N gpfs01", "mmstartup -N gpfs01", "mmgetstate -N gpfs01 -Y"} {
		if _, err := module.Capture(context.Background(), h, cmd); err != nil {
			t.Fatal(err)
		}
	}
	if o := run(t, h, ``).Outputs; o.GetAttr("restart_pending").True() {
		t.Fatalf("still pending after a restart: %#v", o)
	}
}

// A node whose daemon is down (an interrupted restart left it so, say)
// counts as pending: nothing configured is in effect there.
func TestDaemonDown(t *testing.T) {
	c := cluster(base...)
	h := moduletest.NewFakeHost("gpfs02")
	c.Attach(h)
	c.Change("verbsPorts", "mlx5_0/1")
	c.SetState("gpfs02", "down")
	resp := run(t, h, ``)
	o := resp.Outputs
	if o.GetAttr("daemon_running").True() || o.GetAttr("restart_pending").False() || o.GetAttr("effective").LengthInt() != 0 || o.GetAttr("pending").LengthInt() != 4 {
		t.Fatalf("outputs %#v", o)
	}
	if !strings.Contains(resp.Message, "GPFS daemon is not running on gpfs02 (mmdiag: The GPFS daemon is not running on this node.): no configured value is in effect; restart pending") {
		t.Errorf("message %q", resp.Message)
	}
}

func TestNodeSectionsResolveTheLocalNode(t *testing.T) {
	for _, tc := range []struct{ host, hostname string }{
		{"gpfs02", ""}, // inventory name is the daemon name
		{"node-b", "node-b\n10.0.0.5 10.10.1.12\n"}, // matched by address
	} {
		c := cluster(append(base, gpfsfake.Entry{Attr: "verbsPorts", Value: "mlx5_1/1", Nodes: []string{"gpfs02"}})...)
		h := moduletest.NewFakeHost(tc.host)
		c.Attach(h)
		h.Reply(`^hostname; hostname -I$`, moduletest.Reply{Stdout: tc.hostname})
		h.Handle(`mmdiag --config -Y$`, func(string, []byte) moduletest.Reply {
			return moduletest.Reply{Stdout: "mmdiag:config:HEADER:version:reserved:reserved:name:value:changed:\nmmdiag:config:0:1:::verbsPorts:mlx5_1/1::\n"}
		})
		o := run(t, h, `attributes = ["verbsPorts"]`).Outputs
		if o.GetAttr("node").AsString() != "gpfs02" || o.GetAttr("configured").Index(cty.StringVal("verbsPorts")).AsString() != "mlx5_1/1" ||
			o.GetAttr("restart_pending").True() {
			t.Errorf("%s: outputs %#v", tc.host, o)
		}
	}
}

func TestNodeClasses(t *testing.T) {
	c := cluster(append(base, gpfsfake.Entry{Attr: "pagepool", Value: "16G", Nodes: []string{"nsdNodes"}})...)
	h := moduletest.NewFakeHost("gpfs01")
	c.Attach(h)
	o := run(t, h, `
attributes   = ["pagepool"]
node_classes = ["nsdNodes"]`).Outputs
	if o.GetAttr("configured").Index(cty.StringVal("pagepool")).AsString() != "16G" || !o.GetAttr("restart_pending").True() {
		t.Errorf("outputs %#v", o)
	}
}

func TestSampleMmdiag(t *testing.T) {
	diag := string(samples.Read(t, "gpfs/mmdiag-config-Y-changed-column.txt"))
	for pagepool, pending := range map[string]bool{"4G": false, "4096M": false, "8G": true} {
		h := moduletest.NewFakeHost("n1")
		h.Reply(`mmlsconfig -Y$`, moduletest.Reply{Stdout: "mmlsconfig::HEADER:version:reserved:reserved:configParameter:value:nodeList:\nmmlsconfig::0:1:::pagepool:" + pagepool + ":common:\n"})
		h.Reply(`mmdiag --config -Y$`, moduletest.Reply{Stdout: diag})
		o := run(t, h, `attributes = ["pagepool", "pagepoolMaxPhysMemPct"]`).Outputs
		if o.GetAttr("restart_pending").True() != pending || o.GetAttr("effective").Index(cty.StringVal("pagepoolMaxPhysMemPct")).AsString() != "75" {
			t.Errorf("pagepool %s: outputs %#v", pagepool, o)
		}
	}
}

func TestParseErrorsNameHost(t *testing.T) {
	h := moduletest.NewFakeHost("gpfs03")
	cluster(base...).Attach(h)
	h.Reply(`mmdiag --config -Y$`, moduletest.Reply{Stdout: "mmdiag:config:HEADER:version:reserved:reserved:name:value:changed:\nnonsense\n"})
	_, err := New().Apply(context.Background(), module.ApplyRequest{Host: h, Args: decode(t, ``)})
	var pe *parse.Error
	if !errors.As(err, &pe) || pe.Tool != "mmdiag --config -Y" || pe.Line != 2 || !strings.Contains(err.Error(), "on gpfs03") {
		t.Fatalf("err = %v", err)
	}
}
