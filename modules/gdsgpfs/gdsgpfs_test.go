package gdsgpfs

import (
	"context"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hcldec"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/provadev/prova/engine/module"
	"github.com/provadev/prova/engine/module/moduletest"
	"github.com/provadev/prova/modules/internal/gpfscmd/gpfsfake"
)

var ready = []gpfsfake.Entry{{Attr: "minReleaseLevel", Value: "5.1.9.0"}, {Attr: "verbsRdma", Value: "enable"},
	{Attr: "verbsRdmaSend", Value: "yes"}, {Attr: "verbsGPUDirectStorage", Value: "yes"}, {Attr: "verbsPorts", Value: "mlx5_0/1/0 mlx5_1"}}

func cluster(cfg ...gpfsfake.Entry) *gpfsfake.Cluster {
	return &gpfsfake.Cluster{Nodes: []gpfsfake.Node{{Name: "gds01", IP: "10.10.0.1", Quorum: true}}, Config: cfg}
}

func TestConformance(t *testing.T) {
	moduletest.Run(t, New(), moduletest.WithProbes([]moduletest.Case{
		{Name: "ready", Body: `rdma_devices = ["mlx5_0/1"]`, Setup: cluster(ready...).Attach},
	}, `mmlsconfig -Y$`, `mmdiag --config -Y$`))
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

func apply(t *testing.T, body string, c *gpfsfake.Cluster, state string) (module.ApplyResponse, map[string]cty.Value) {
	t.Helper()
	h := moduletest.NewFakeHost("gds01")
	c.Attach(h)
	if state != "" {
		c.SetState("gds01", state)
	}
	resp, err := New().Apply(context.Background(), module.ApplyRequest{Host: h, Args: decode(t, body)})
	if err != nil {
		t.Fatal(err)
	}
	return resp, resp.Outputs.AsValueMap()
}

func list(v cty.Value) string {
	var s []string
	for _, e := range v.AsValueSlice() {
		s = append(s, e.AsString())
	}
	return strings.Join(s, " ")
}

// Issue 19.5: IBM's four requirements, judged on the running daemon.
func TestSettings(t *testing.T) {
	resp, o := apply(t, `rdma_devices = ["mlx5_0/1", "mlx5_1/1"]`, cluster(ready...), "")
	if !o["settings_in_effect"].True() || !o["ports_match"].True() || list(o["verbs_ports"]) != "mlx5_0/1 mlx5_1/1" ||
		resp.Evidence["mmdiag --config -Y"] == "" || !strings.Contains(resp.Message, "verbsGPUDirectStorage yes") {
		t.Errorf("ready: %v %q", o, resp.Message)
	}
	for name, c := range map[string]struct {
		change    []gpfsfake.Entry
		out, want string
	}{
		"gds off":         {[]gpfsfake.Entry{{Attr: "verbsGPUDirectStorage", Value: "no"}}, "gds_enabled", ""},
		"gds unset":       {nil, "gds_enabled", "unset"},
		"rdma send no":    {[]gpfsfake.Entry{{Attr: "verbsRdmaSend", Value: "no"}}, "verbs_rdma_send", ""},
		"rdma disabled":   {[]gpfsfake.Entry{{Attr: "verbsRdma", Value: "disable"}}, "verbs_rdma", ""},
		"release too old": {[]gpfsfake.Entry{{Attr: "minReleaseLevel", Value: "5.1.1.0"}}, "min_release_ok", ""},
	} {
		cfg := []gpfsfake.Entry{}
		for _, e := range ready {
			skip := c.want == "unset" && e.Attr == "verbsGPUDirectStorage"
			for _, ch := range c.change {
				if ch.Attr == e.Attr {
					e = ch
				}
			}
			if !skip {
				cfg = append(cfg, e)
			}
		}
		if _, o := apply(t, `rdma_devices = ["mlx5_0/1"]`, cluster(cfg...), ""); o[c.out].True() || o["settings_in_effect"].True() {
			t.Errorf("%s: %s %v in effect %v", name, c.out, o[c.out], o["settings_in_effect"])
		}
	}
	// A cuFile device verbsPorts does not name: GDS I/O through it fails.
	_, o = apply(t, `rdma_devices = ["mlx5_0/1", "mlx5_2/1"]`, cluster(ready...), "")
	if o["ports_match"].True() || list(o["ports_missing"]) != "mlx5_2/1" {
		t.Errorf("missing port: %v", o)
	}
	// No device known (rdma_dev_addr_list empty or unmapped): no match.
	if _, o = apply(t, ``, cluster(ready...), ""); o["ports_match"].True() {
		t.Error("no rdma_devices cannot match")
	}
}

// A daemon that is not running has no setting in effect.
func TestDaemonDown(t *testing.T) {
	resp, o := apply(t, `rdma_devices = ["mlx5_0/1"]`, cluster(ready...), "down")
	if o["daemon_running"].True() || o["settings_in_effect"].True() || o["ports_match"].True() || !o["min_release_ok"].True() ||
		!strings.Contains(resp.Message, "not running on gds01") {
		t.Errorf("down: %v %q", o, resp.Message)
	}
}

func TestPort(t *testing.T) {
	for in, want := range map[string]string{"mlx5_0": "mlx5_0/1", "mlx5_0/2": "mlx5_0/2", "mlx5_4/1/0": "mlx5_4/1", " mlx5_1/1 ": "mlx5_1/1"} {
		if got := port(in); got != want {
			t.Errorf("port(%q) = %q, want %q", in, got, want)
		}
	}
	for v, want := range map[string]bool{"5.1.2.0": true, "5.2.0.0": true, "5.1.1.9": false, "6.0": true, "": false, "5.1": false, "x": false} {
		if atLeast(v, []int{5, 1, 2}) != want {
			t.Errorf("atLeast(%q) != %v", v, want)
		}
	}
}
