package gputopology

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
	s4  = "nvidia-smi-topo/topo-m-4gpu-nv18-4nic-nic-legend-go-fixture.txt"
	s8  = "nvidia-smi-topo/topo-m-8gpu-nvlink-nv1-nv2-mlx5_0-driver440.txt"
	s2  = "nvidia-smi-topo/topo-m-2gpu-sys-no-nic-sglang-issue.txt"
	cmd = `^nvidia-smi topo -m$`
)

func sample(t *testing.T, rel string) func(*moduletest.FakeHost) {
	return func(h *moduletest.FakeHost) { h.Reply(cmd, moduletest.Reply{Stdout: string(samples.Read(t, rel))}) }
}

func TestConformance(t *testing.T) {
	moduletest.Run(t, New(), moduletest.WithProbes([]moduletest.Case{
		{Name: "nic-legend", Body: `nics = ["mlx5_0/1", "mlx5_1"]`, Setup: sample(t, s4)},
		{Name: "no-nvidia-smi", Body: ``},
	}, `^nvidia-smi topo -m$`))
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

type outs struct {
	HasGPU, AllNear              bool
	Nearest, Far, NoNIC, Missing string
	Matrix                       map[string]cty.Value
	Message                      string
	Evidence                     bool
}

func run(t *testing.T, body string, setup func(*moduletest.FakeHost)) outs {
	t.Helper()
	h := moduletest.NewFakeHost("gpu01")
	if setup != nil {
		setup(h)
	}
	resp, err := New().Apply(context.Background(), module.ApplyRequest{Host: h, Args: decode(t, body)})
	if err != nil {
		t.Fatal(err)
	}
	if resp.Failed {
		t.Fatalf("gpu_topology never fails by itself: %+v", resp)
	}
	o := resp.Outputs.AsValueMap()
	var near []string
	for _, n := range o["nearest"].AsValueSlice() {
		near = append(near, n.GetAttr("gpu").AsString()+"="+n.GetAttr("nic").AsString()+":"+n.GetAttr("relation").AsString())
	}
	return outs{HasGPU: o["has_gpu"].True(), AllNear: o["all_near"].True(), Nearest: strings.Join(near, " "),
		Far: join(o["far"]), NoNIC: join(o["no_nic"]), Missing: join(o["missing_nics"]), Matrix: o["matrix"].AsValueMap(),
		Message: resp.Message, Evidence: resp.Evidence[command] != ""}
}

func join(v cty.Value) string {
	var s []string
	for _, e := range v.AsValueSlice() {
		s = append(s, e.AsString())
	}
	return strings.Join(s, " ")
}

func TestNICLegendSample(t *testing.T) {
	o := run(t, ``, sample(t, s4))
	if !o.HasGPU || !o.AllNear || o.Far != "" || o.Nearest != "GPU0=mlx5_0:PXB GPU1=mlx5_3:PXB GPU2=mlx5_2:PXB GPU3=mlx5_1:PXB" || !o.Evidence {
		t.Errorf("all NICs: %+v", o)
	}
	if got := cell(o.Matrix, "GPU1", "mlx5_3"); got != "PXB" {
		t.Errorf("matrix GPU1/mlx5_3 = %s", got)
	}
	if got := cell(o.Matrix, "mlx5_0", "mlx5_1"); got != "PIX" {
		t.Errorf("matrix mlx5_0/mlx5_1 = %s", got)
	}
	// Only the port the storage uses: three GPUs reach it across the
	// host bridges.
	o = run(t, `nics = ["mlx5_0/1", "mlx5_9"]`, sample(t, s4))
	if o.AllNear || o.Far != "GPU1 GPU2 GPU3" || o.Missing != "mlx5_9" || o.Nearest != "GPU0=mlx5_0:PXB GPU1=mlx5_0:NODE GPU2=mlx5_0:NODE GPU3=mlx5_0:NODE" {
		t.Errorf("mlx5_0 only: %+v", o)
	}
}

func TestOldDriverSample(t *testing.T) {
	o := run(t, ``, sample(t, s8))
	if o.AllNear || o.Far != "GPU0 GPU1 GPU4 GPU5 GPU6 GPU7" || !strings.HasPrefix(o.Nearest, "GPU0=mlx5_0:NODE GPU1=mlx5_0:NODE GPU2=mlx5_0:PIX GPU3=mlx5_0:PIX GPU4=mlx5_0:SYS") {
		t.Errorf("8 GPUs: %+v", o)
	}
	if !strings.HasPrefix(o.Message, "GPU0-mlx5_0 NODE, GPU1-mlx5_0 NODE, GPU2-mlx5_0 PIX") {
		t.Errorf("message %q", o.Message)
	}
}

func TestNoNICSample(t *testing.T) {
	o := run(t, ``, sample(t, s2))
	if !o.HasGPU || o.AllNear || o.NoNIC != "GPU0 GPU1" || o.Nearest != "" || cell(o.Matrix, "GPU0", "GPU1") != "SYS" {
		t.Errorf("no NIC: %+v", o)
	}
}

func TestNoGPU(t *testing.T) {
	if o := run(t, ``, nil); o.HasGPU || o.AllNear || o.Evidence || !strings.Contains(o.Message, "nvidia-smi not found") {
		t.Errorf("missing nvidia-smi: %+v", o)
	}
	failed := func(h *moduletest.FakeHost) {
		h.Reply(cmd, moduletest.Reply{RC: 9, Stdout: "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver. Make sure that the latest NVIDIA driver is installed and running.\n"})
	}
	if o := run(t, ``, failed); o.HasGPU || o.AllNear || !strings.HasPrefix(o.Message, "no GPU: NVIDIA-SMI has failed") {
		t.Errorf("no driver: %+v", o)
	}
}

func TestErrors(t *testing.T) {
	h := moduletest.NewFakeHost("gpu01")
	h.Reply(cmd, moduletest.Reply{Stdout: "something else\n"})
	_, err := New().Apply(context.Background(), module.ApplyRequest{Host: h, Args: decode(t, ``)})
	var pe *parse.Error
	if !errors.As(err, &pe) || pe.Tool != "nvidia-smi topo -m" || pe.Line != 1 || !strings.Contains(err.Error(), "gpu01") {
		t.Errorf("bad output: %v", err)
	}
	f, _ := hclsyntax.ParseConfig([]byte(`nics = ["mlx5_0", " "]`), "s.hcl", hcl.InitialPos)
	if _, diags := hcldec.Decode(f.Body, New().Spec(), nil); !diags.HasErrors() || diags[0].Summary != "Empty NIC name" {
		t.Errorf("empty NIC: %v", diags)
	}
	h.Unreachable()
	if _, err := New().Apply(context.Background(), module.ApplyRequest{Host: h, Args: decode(t, ``)}); !module.IsUnreachable(err) {
		t.Errorf("unreachable: %v", err)
	}
}

func cell(m map[string]cty.Value, row, col string) string {
	return m[row].Index(cty.StringVal(col)).AsString()
}

// Issue 19.7: a GPU whose nearest NIC is PHB fails all_near and must be
// named in far, or the warning reads "reach no RDMA NIC" with no GPU in it.
func TestPHBNamed(t *testing.T) {
	o := run(t, `nics = ["mlx5_0"]`, func(h *moduletest.FakeHost) {
		h.Reply(cmd, moduletest.Reply{Stdout: "\tGPU0\tGPU1\tNIC0\tCPU Affinity\tNUMA Affinity\tGPU NUMA ID\n" +
			"GPU0\t X \tSYS\tPHB\t0-31\t0\t\tN/A\nGPU1\tSYS\t X \tPIX\t32-63\t1\t\tN/A\nNIC0\tPHB\tPIX\t X\n\nLegend:\n\n  X    = Self\n\nNIC Legend:\n\n  NIC0: mlx5_0\n"})
	})
	if o.AllNear || o.Far != "GPU0" || o.Nearest != "GPU0=mlx5_0:PHB GPU1=mlx5_0:PIX" {
		t.Errorf("PHB: %+v", o)
	}
}

// Issue 19.6: a GPU and its NIC on one switch (PIX) whose downstream port
// has ACS redirecting are named with the port; without lspci capabilities
// (not root) or ibdev2netdev -v, ACS is unknown, never clean.
func TestACS(t *testing.T) {
	topo := "\tGPU0\tNIC0\tCPU Affinity\tNUMA Affinity\tGPU NUMA ID\nGPU0\t X \tPIX\t0-31\t0\t\tN/A\nNIC0\tPIX\t X\n\nLegend:\n\n  X    = Self\n\nNIC Legend:\n\n  NIC0: mlx5_0\n"
	lspci := func(acs string) string {
		return "0000:15:00.0 PCI bridge: Broadcom / LSI PEX890xx PCIe Gen 5 Switch (rev b0)\n\tBus: primary=15, secondary=16, subordinate=16, sec-latency=0\n" +
			"\tCapabilities: [2a0 v1] Access Control Services\n\t\tACSCtl:\t" + acs + "\n\n" +
			"0000:15:01.0 PCI bridge: Broadcom / LSI PEX890xx PCIe Gen 5 Switch (rev b0)\n\tBus: primary=15, secondary=17, subordinate=17, sec-latency=0\n\n" +
			"0000:16:00.0 Infiniband controller: Mellanox Technologies MT2910 Family [ConnectX-7]\n\n" +
			"0000:17:00.0 3D controller: NVIDIA Corporation GH100 [H100 SXM5 80GB] (rev a1)\n"
	}
	ib := "0000:16:00.0 mlx5_0 (MT4129 - MT2242X01234) NVIDIA ConnectX-7 fw 28.39.1002 port 1 (ACTIVE) ==> ib0 (Up)\n"
	apply := func(lspciOut, ibOut moduletest.Reply) map[string]cty.Value {
		h := moduletest.NewFakeHost("gpu01")
		h.Reply(cmd, moduletest.Reply{Stdout: topo})
		h.Reply(`^lspci -vvv -D$`, lspciOut)
		h.Reply(`^ibdev2netdev -v$`, ibOut)
		resp, err := New().Apply(context.Background(), module.ApplyRequest{Host: h, Args: decode(t, `acs = true`)})
		if err != nil {
			t.Fatal(err)
		}
		return resp.Outputs.AsValueMap()
	}
	o := apply(moduletest.Reply{Stdout: lspci("SrcValid+ ReqRedir+ CmpltRedir+")}, moduletest.Reply{Stdout: ib})
	if !o["acs_checked"].True() || join(o["acs_blocked"]) != "GPU0-mlx5_0: ACS redirects peer-to-peer at 0000:15:00.0" {
		t.Errorf("acs on: %v %v", o["acs_checked"], o["acs_blocked"])
	}
	o = apply(moduletest.Reply{Stdout: lspci("SrcValid- ReqRedir- CmpltRedir-")}, moduletest.Reply{Stdout: ib})
	if !o["acs_checked"].True() || join(o["acs_blocked"]) != "" {
		t.Errorf("acs off: %v", o["acs_blocked"])
	}
	denied := "0000:15:00.0 PCI bridge: Broadcom / LSI PEX890xx PCIe Gen 5 Switch (rev b0)\n\tCapabilities: <access denied>\n"
	o = apply(moduletest.Reply{Stdout: denied}, moduletest.Reply{Stdout: ib})
	if o["acs_checked"].True() || !strings.Contains(o["acs_unknown"].AsString(), "not root") {
		t.Errorf("denied: %v", o)
	}
	o = apply(moduletest.Reply{Stdout: lspci("ReqRedir+")}, moduletest.Reply{RC: 127, Stderr: "sh: 1: ibdev2netdev: not found\n"})
	if o["acs_checked"].True() || !strings.Contains(o["acs_unknown"].AsString(), "ibdev2netdev -v failed") {
		t.Errorf("no ibdev2netdev: %v", o)
	}
}
