package cephmessenger

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
)

const tcpConf = `# written by ceph-deploy
[global]
fsid = 6a1b2c3d-0000-4000-8000-000000000001
mon_host = 10.10.0.1
ms type = async+posix   ; the default, spelled with spaces
`

const rdmaConf = `[global]
	fsid = 6a1b2c3d-0000-4000-8000-000000000001
	ms_type = async+posix

[osd]
	ms-cluster-type = async+rdma
	ms_async_rdma_device_name = mlx5_0
`

func conf(text string) func(*moduletest.FakeHost) {
	return func(h *moduletest.FakeHost) { h.Reply(`^cat -- /etc/ceph/ceph.conf$`, moduletest.Reply{Stdout: text}) }
}

func TestConformance(t *testing.T) {
	moduletest.Run(t, New(), moduletest.WithProbes([]moduletest.Case{
		{Name: "tcp", Body: ``, Setup: conf(tcpConf)},
		{Name: "rdma-fails", Body: `who = "osd"`, Setup: conf(rdmaConf), WantFailed: true},
		{Name: "rdma-waived", Body: "waive = true\njustification = \"benchmark cluster STOR-1\"", Setup: conf(rdmaConf)},
		{Name: "planned-only", Body: "source = \"none\"\nplanned_settings = { \"ms type\" = \"async+rdma\" }", WantFailed: true},
		{Name: "config", Body: "source = \"config\"\nwho = \"osd.3\"", Setup: func(h *moduletest.FakeHost) {
			h.Reply(`^ceph config get osd.3 ms_type$`, moduletest.Reply{Stdout: "async+posix\n"})
			h.Reply(`^ceph config get osd.3 ms_(cluster|public)_type$`, moduletest.Reply{Stdout: "\n"})
		}},
	}, `^cat -- `, `^ceph config get `))
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

func apply(t *testing.T, body string, setup func(*moduletest.FakeHost)) (module.ApplyResponse, map[string]cty.Value) {
	t.Helper()
	h := moduletest.NewFakeHost("ceph01")
	if setup != nil {
		setup(h)
	}
	args := decode(t, body)
	if d := New().Validate(args); d.HasErrors() {
		t.Fatal(d)
	}
	resp, err := New().Apply(context.Background(), module.ApplyRequest{Host: h, Args: args})
	if err != nil {
		t.Fatal(err)
	}
	return resp, resp.Outputs.AsValueMap()
}

func settings(o map[string]cty.Value) string {
	return o["ms_type"].AsString() + " " + o["ms_cluster_type"].AsString() + " " + o["ms_public_type"].AsString()
}

func TestTCPPasses(t *testing.T) {
	resp, o := apply(t, ``, conf(tcpConf))
	if resp.Failed || o["rdma"].True() || !o["found"].True() || settings(o) != "async+posix async+posix async+posix" || o["reason"].AsString() != "" {
		t.Fatalf("tcp: %+v %v", resp, o)
	}
	if len(resp.Checks) != 1 || resp.Checks[0].Verdict != "pass" || resp.Evidence["/etc/ceph/ceph.conf"] != tcpConf {
		t.Errorf("check/evidence: %+v %v", resp.Checks, resp.Evidence)
	}
}

func TestRDMAInDaemonSectionFails(t *testing.T) {
	resp, o := apply(t, ``, conf(rdmaConf))
	if !resp.Failed || !o["rdma"].True() || o["waived"].True() {
		t.Fatalf("rdma: %+v", resp)
	}
	// who = global: [osd] does not apply, yet the guard sees it.
	if settings(o) != "async+posix async+posix async+posix" {
		t.Errorf("global settings %s", settings(o))
	}
	for _, want := range []string{"[osd] ms_cluster_type = async+rdma", "experimental for years", "OSD path and BlueStore",
		"Change the storage (GPFS, Weka, VAST), not Ceph's network stack"} {
		if !strings.Contains(resp.Message, want) {
			t.Errorf("message lacks %q: %s", want, resp.Message)
		}
	}
	if resp.Checks[0].Verdict != "fail" {
		t.Errorf("check %+v", resp.Checks)
	}
	_, o = apply(t, `who = "osd.3"`, conf(rdmaConf))
	if settings(o) != "async+posix async+rdma async+posix" {
		t.Errorf("osd.3 settings %s", settings(o))
	}
}

func TestWaiver(t *testing.T) {
	resp, o := apply(t, "waive = true\njustification = \"isolated benchmark cluster, STOR-123\"", conf(rdmaConf))
	if resp.Failed || !o["waived"].True() || !o["rdma"].True() || !strings.HasPrefix(resp.Message, "WARNING: Ceph RDMA messenger waived: isolated benchmark cluster, STOR-123") {
		t.Fatalf("waived: %+v", resp)
	}
	if c := resp.Checks[0]; c.Verdict != "waived" || c.Message != "isolated benchmark cluster, STOR-123" {
		t.Errorf("check %+v", c)
	}
	// A waiver on a TCP cluster changes nothing.
	if resp, o := apply(t, "waive = true\njustification = \"x\"", conf(tcpConf)); resp.Failed || o["waived"].True() || resp.Checks[0].Verdict != "pass" {
		t.Errorf("waiver without rdma: %+v", resp)
	}
	for _, body := range []string{"waive = true", "waive = true\njustification = \"  \""} {
		d := New().Validate(decode(t, body))
		if !d.HasErrors() || d[0].Summary != "Waiver without justification" {
			t.Errorf("%q: %v", body, d)
		}
	}
}

func TestPlannedSettings(t *testing.T) {
	args := decode(t, "planned_settings = { ms_public_type = \"ASYNC+RDMA\", osd_pool_default_size = \"3\" }")
	d := New().Validate(args)
	if d.HasErrors() || len(d) != 1 || d[0].Severity != hcl.DiagWarning || !strings.Contains(d[0].Detail, "ms_public_type = ASYNC+RDMA") {
		t.Errorf("validate warning: %v", d)
	}
	resp, o := apply(t, "planned_settings = { ms_public_type = \"ASYNC+RDMA\" }", conf(tcpConf))
	if !resp.Failed || strings.Join(strs(o["findings"]), "|") != "planned ms_public_type = ASYNC+RDMA" {
		t.Errorf("planned: %+v", resp)
	}
	if got := ScanSettings(map[string]string{"ms type": "async+rdma", "ms-cluster-type": " async+rdma ", "ms_crc_data": "async+rdma"}); strings.Join(got, "|") != "ms_cluster_type = async+rdma|ms_type = async+rdma" {
		t.Errorf("ScanSettings = %q", got)
	}
}

func strs(v cty.Value) []string {
	var out []string
	for _, e := range v.AsValueSlice() {
		out = append(out, e.AsString())
	}
	return out
}

func TestNoConfAndErrors(t *testing.T) {
	resp, o := apply(t, ``, func(h *moduletest.FakeHost) {
		h.Reply(`^cat`, moduletest.Reply{RC: 1, Stderr: "cat: /etc/ceph/ceph.conf: No such file or directory\n"})
	})
	if resp.Failed || o["found"].True() || o["rdma"].True() || settings(o) != "async+posix async+posix async+posix" {
		t.Errorf("no conf: %+v %v", resp, o)
	}
	h := moduletest.NewFakeHost("ceph01")
	h.Reply(`^cat`, moduletest.Reply{Stdout: "[global]\nthis line is broken\n"})
	if _, err := New().Apply(context.Background(), module.ApplyRequest{Host: h, Args: decode(t, ``)}); err == nil ||
		!strings.Contains(err.Error(), `line 2`) || !strings.Contains(err.Error(), "ceph01") {
		t.Errorf("bad conf: %v", err)
	}
	h.Reply(`^ceph config`, moduletest.Reply{RC: 127, Stderr: "sh: 1: ceph: not found\n"})
	if _, err := New().Apply(context.Background(), module.ApplyRequest{Host: h, Args: decode(t, `source = "config"`)}); err == nil || !strings.Contains(err.Error(), "ceph: not found") {
		t.Errorf("no ceph CLI: %v", err)
	}
	if d := New().Validate(decode(t, `source = "mon"`)); !d.HasErrors() {
		t.Error("bad source accepted")
	}
}

func TestParseConf(t *testing.T) {
	c, err := ParseConf("ms_type = async+rdma\n[OSD.3]\n  ms public type = \"async+posix\" # quoted\n")
	if err != nil {
		t.Fatal(err)
	}
	if c["global"]["ms_type"] != "async+rdma" || c["osd.3"]["ms_public_type"] != "async+posix" {
		t.Errorf("conf = %v", c)
	}
	e := c.Effective("osd.3")
	if e["ms_type"] != "async+rdma" || e["ms_cluster_type"] != "async+rdma" || e["ms_public_type"] != "async+posix" {
		t.Errorf("effective = %v", e)
	}
}
