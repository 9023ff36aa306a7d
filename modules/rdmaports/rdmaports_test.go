package rdmaports

import (
	"context"
	"errors"
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
	mlx4Sample   = "ibstat/ibstat-mlx4_0-2port-port1-down-polling-port2-active.txt"
	mixedSample  = "ibdev2netdev/ibdev2netdev-mixed-roce-ib-one-down.txt"
	sriovSample  = "ibdev2netdev/ibdev2netdev-and-v-connectx4-sriov-vfs-PARTIAL.txt"
	noHCASample  = "ibstat/no-hca-empty-output.txt"
	noHCAlSample = "ibstat/no-hca-ibstat-l-empty.txt"
)

// output returns the tool output in a sample without the lines its
// collector or author added (prompts, "[exit status N]").
func output(t *testing.T, rel string) string {
	t.Helper()
	return sections(t, rel)[0]
}

// sections splits a sample at pasted prompt lines ("# cmd", "[root@x ~]# cmd").
func sections(t *testing.T, rel string) []string {
	t.Helper()
	var out []string
	var cur strings.Builder
	for _, l := range strings.SplitAfter(string(samples.Read(t, rel)), "\n") {
		s := strings.TrimSpace(l)
		switch {
		case strings.HasPrefix(s, "[exit status"):
			continue
		case strings.HasPrefix(s, "# ") || strings.HasPrefix(s, "[root@"):
			if cur.Len() > 0 {
				out = append(out, cur.String())
			}
			cur.Reset()
			continue
		}
		if s != "" {
			cur.WriteString(l)
		}
	}
	return append(out, cur.String())
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

func apply(t *testing.T, h module.Host, body string) module.ApplyResponse {
	t.Helper()
	resp, err := New().Apply(context.Background(), module.ApplyRequest{Host: h, Args: decode(t, body)})
	if err != nil {
		t.Fatalf("Apply: %v", err)
	}
	return resp
}

func strs(v cty.Value) []string {
	var out []string
	for it := v.ElementIterator(); it.Next(); {
		_, e := it.Element()
		out = append(out, e.AsString())
	}
	return out
}

func TestConformance(t *testing.T) {
	mlx4 := output(t, mlx4Sample)
	moduletest.Run(t, New(), moduletest.WithProbes([]moduletest.Case{
		{
			Name: "sample_mlx4_no_ofed",
			Body: `require = ["mlx4_0/2", "mlx4_0/1"]`,
			Setup: func(h *moduletest.FakeHost) {
				h.Reply(`^ibstat$`, moduletest.Reply{Stdout: mlx4})
				h.Reply(`^ibdev2netdev$`, moduletest.Reply{RC: 127, Stderr: "sh: 1: ibdev2netdev: not found\n"})
			},
		},
		{
			Name: "no_hca",
			Body: `require = ["mlx5_0/1"]`,
			Setup: func(h *moduletest.FakeHost) {
				h.Reply(`^ibstat$`, moduletest.Reply{Stdout: output(t, noHCASample)})
				h.Reply(`^ibdev2netdev$`, moduletest.Reply{})
			},
		},
	}, `^ibstat`, `^ibdev2netdev$`))
}

func TestSampleOutputs(t *testing.T) {
	h := moduletest.NewFakeHost("storage02")
	h.Reply(`^ibstat$`, moduletest.Reply{Stdout: output(t, mlx4Sample)})
	h.Reply(`^ibdev2netdev$`, moduletest.Reply{Stdout: "mlx4_0 port 1 ==> ib0 (Down)\nmlx4_0 port 2 ==> ib1 (Up)\n"})
	resp := apply(t, h, `require = ["mlx4_0/2", "mlx4_0/1", "mlx4_0/3", "mlx5_0"]`)
	o := resp.Outputs
	if !o.GetAttr("has_hca").True() {
		t.Fatal("has_hca = false for a host with mlx4_0")
	}
	if got := strs(o.GetAttr("active_ports")); strings.Join(got, ",") != "mlx4_0/2" {
		t.Errorf("active_ports = %q", got)
	}
	if got := strs(o.GetAttr("missing_ports")); strings.Join(got, ",") != "mlx4_0/1,mlx4_0/3,mlx5_0" {
		t.Errorf("missing_ports = %q", got)
	}
	ports := o.GetAttr("devices").Index(cty.NumberIntVal(0)).GetAttr("ports")
	p1, p2 := ports.Index(cty.NumberIntVal(0)), ports.Index(cty.NumberIntVal(1))
	if p1.GetAttr("state").AsString() != "Down" || p1.GetAttr("phys_state").AsString() != "Polling" ||
		p1.GetAttr("netdev").AsString() != "ib0" || p1.GetAttr("netdev_up").True() {
		t.Errorf("port 1 = %#v", p1)
	}
	if r, _ := p2.GetAttr("rate_gbps").AsBigFloat().Float64(); r != 56 || p2.GetAttr("link_layer").AsString() != "InfiniBand" || !p2.GetAttr("netdev_up").True() {
		t.Errorf("port 2 = %#v", p2)
	}
	for _, want := range []string{"mlx4_0/1: port is Down, physical state Polling", "mlx4_0/3: mlx4_0 has no port 3 (ports: 1, 2)", "mlx5_0: no device mlx5_0 (devices: mlx4_0)"} {
		if !strings.Contains(resp.Message, want) {
			t.Errorf("message %q lacks %q", resp.Message, want)
		}
	}
	if len(resp.Checks) != 4 || resp.Checks[0].Verdict != "pass" || resp.Checks[1].Verdict != "fail" || resp.Checks[1].Measured != "Down/Polling" {
		t.Errorf("checks = %+v", resp.Checks)
	}
	if resp.Changed || resp.Failed {
		t.Error("a read-only check reported a change or a failure")
	}
}

// TestNoHCAIsClearFalse: ibstat prints nothing and exits 0 without an HCA.
func TestNoHCAIsClearFalse(t *testing.T) {
	for _, rel := range []string{noHCASample, noHCAlSample} {
		h := moduletest.NewFakeHost("n1")
		h.Reply(`^ibstat$`, moduletest.Reply{Stdout: output(t, rel)})
		h.Reply(`^ibdev2netdev$`, moduletest.Reply{})
		resp := apply(t, h, `require = ["mlx5_0/1"]`)
		if resp.Outputs.GetAttr("has_hca").True() || resp.Outputs.GetAttr("devices").LengthInt() != 0 {
			t.Errorf("%s: has_hca true or devices listed", rel)
		}
		if got := strs(resp.Outputs.GetAttr("missing_ports")); len(got) != 1 || !strings.Contains(resp.Message, "no HCA") {
			t.Errorf("%s: missing_ports %q, message %q", rel, got, resp.Message)
		}
	}
}

func TestIbdev2netdevSamples(t *testing.T) {
	ibstatOut := "CA 'mlx5_0'\n\tPort 1:\n\t\tState: Active\n\t\tPhysical state: LinkUp\n\t\tRate: 100\n\t\tLink layer: Ethernet\n" +
		"CA 'mlx5_1'\n\tPort 1:\n\t\tState: Active\n\t\tPhysical state: LinkUp\n\t\tRate: 200\n\t\tLink layer: InfiniBand\n" +
		"CA 'mlx5_2'\n\tPort 1:\n\t\tState: Active\n\t\tPhysical state: LinkUp\n\t\tRate: 100\n\t\tLink layer: Ethernet\n"
	for _, tc := range []struct {
		out, dev, netdev string
		up               bool
	}{
		{output(t, mixedSample), "mlx5_2", "ens17np0", false},
		{output(t, mixedSample), "mlx5_0", "ens13np0", true},
		{sections(t, sriovSample)[0], "mlx5_1", "ib1", false},
		{sections(t, sriovSample)[1], "mlx5_2", "ib2", false},
		{sections(t, sriovSample)[1], "mlx5_0", "ib0", true},
	} {
		h := moduletest.NewFakeHost("n1")
		h.Reply(`^ibstat$`, moduletest.Reply{Stdout: ibstatOut})
		h.Reply(`^ibdev2netdev$`, moduletest.Reply{Stdout: tc.out})
		resp := apply(t, h, ``)
		found := false
		for it := resp.Outputs.GetAttr("devices").ElementIterator(); it.Next(); {
			_, d := it.Element()
			if d.GetAttr("name").AsString() != tc.dev {
				continue
			}
			p := d.GetAttr("ports").Index(cty.NumberIntVal(0))
			found = p.GetAttr("netdev").AsString() == tc.netdev && p.GetAttr("netdev_up").True() == tc.up
		}
		if !found {
			t.Errorf("%s: netdev %s (up %t) not reported", tc.dev, tc.netdev, tc.up)
		}
	}
}

func TestParseErrorsNameToolHostAndLine(t *testing.T) {
	for _, tc := range []struct{ ibstat, ibdev, tool string }{
		{"garbage line\n", "", "ibstat"},
		{output(t, mlx4Sample), "mlx4_0 port 1 ==> ib0 (Up)\nmlx4_0 ???\n", "ibdev2netdev"},
	} {
		h := moduletest.NewFakeHost("gpfs07")
		h.Reply(`^ibstat$`, moduletest.Reply{Stdout: tc.ibstat})
		h.Reply(`^ibdev2netdev$`, moduletest.Reply{Stdout: tc.ibdev})
		_, err := New().Apply(context.Background(), module.ApplyRequest{Host: h, Args: decode(t, ``)})
		var pe *parse.Error
		if !errors.As(err, &pe) || pe.Tool != tc.tool || pe.Line == 0 || !strings.Contains(err.Error(), "gpfs07") {
			t.Errorf("error = %v, want a %s parse error naming gpfs07 and a line", err, tc.tool)
		}
	}
}

func TestIbstatMissingIsAnError(t *testing.T) {
	h := moduletest.NewFakeHost("n1")
	h.Reply(`^ibstat$`, moduletest.Reply{RC: 127, Stderr: "sh: 1: ibstat: not found\n"})
	_, err := New().Apply(context.Background(), module.ApplyRequest{Host: h, Args: decode(t, ``)})
	if err == nil || !strings.Contains(err.Error(), "ibstat is not installed on n1") {
		t.Fatalf("err = %v", err)
	}
}

func TestInvalidRequire(t *testing.T) {
	f, _ := hclsyntax.ParseConfig([]byte(`require = ["mlx5_0/x"]`), "s.hcl", hcl.InitialPos)
	_, diags := hcldec.Decode(f.Body, New().Spec(), nil)
	if !diags.HasErrors() || !strings.Contains(diags.Error(), "bad number") {
		t.Fatalf("diags = %v", diags)
	}
}
