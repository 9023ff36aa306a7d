package nvsmi

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/provadev/prova/internal/testkit/samples"
	"github.com/provadev/prova/lab/model"
	"github.com/provadev/prova/lab/sim/simtest"
)

// The 4-GPU sample rebuilt from a model: NVLink between GPUs, NIC0/NIC1 on
// one switch, relations given per GPU. Only the CPU list differs (the
// simulator prints contiguous ranges, the sample lists HT siblings).
func TestTopoMatrixSample(t *testing.T) {
	rel := func(m map[string]string) map[string]string { return m }
	n := &model.Node{Name: "n", CPUs: 112, NUMANodes: 1,
		HCAs: []model.HCA{{Name: "mlx5_0", PCIeSwitch: "a"}, {Name: "mlx5_1", PCIeSwitch: "a"}, {Name: "mlx5_2"}, {Name: "mlx5_3"}},
		GPUs: []model.GPU{
			{Name: "GPU0", NVLinks: 18, PCIe: rel(map[string]string{"mlx5_0": "PXB", "mlx5_1": "PXB"})},
			{Name: "GPU1", NVLinks: 18, PCIe: rel(map[string]string{"mlx5_3": "PXB"})},
			{Name: "GPU2", NVLinks: 18, PCIe: rel(map[string]string{"mlx5_2": "PXB"})},
			{Name: "GPU3", NVLinks: 18, PCIe: rel(map[string]string{"mlx5_1": "PXB"})},
		}}
	r := simtest.Run(t, Tool(), n, "topo", "-m")
	got := simtest.Expand(strings.ReplaceAll(r.Stdout, "\t0-111\t", "\t0-55,112-167\t"))
	want := string(samples.Read(t, "nvidia-smi-topo/topo-m-4gpu-nv18-4nic-nic-legend-go-fixture.txt"))
	if d := cmp.Diff(want, got); d != "" || r.Status != 0 {
		t.Errorf("topo -m (-sample +sim, TABs expanded):\n%s", d)
	}
}

func TestTopoSysAcrossNUMA(t *testing.T) {
	n := &model.Node{Name: "n", CPUs: 12, NUMANodes: 2, GPUs: []model.GPU{{Name: "GPU0", NUMA: 0}, {Name: "GPU1", NUMA: 1}}}
	r := simtest.Run(t, Tool(), n, "topo", "-m")
	sample := string(samples.Read(t, "nvidia-smi-topo/topo-m-2gpu-sys-no-nic-sglang-issue.txt"))
	// Same matrix rows (the sample's CPU lists interleave NUMA nodes) and
	// legend entries; that reporter's paste dropped the blank line after
	// "Legend:".
	got := strings.Split(simtest.Expand(r.Stdout), "\n")
	if !strings.HasPrefix(got[1], "GPU0     X      SYS     0-5 ") || !strings.HasPrefix(got[2], "GPU1    SYS      X      6-11") {
		t.Errorf("rows %q", got[1:3])
	}
	for _, l := range strings.Split(sample, "\n")[4:] {
		if !strings.Contains(r.Stdout, l) {
			t.Errorf("legend line %q missing", l)
		}
	}
	if Tool().Installed(&model.Node{}) {
		t.Error("nvidia-smi installed without GPUs")
	}
	if r := simtest.Run(t, Tool(), n, "-L"); !strings.HasPrefix(r.Stdout, "GPU 0: NVIDIA") && !strings.HasPrefix(r.Stdout, "GPU 0: ") {
		t.Errorf("-L %q", r.Stdout)
	}
	if r := simtest.Run(t, Tool(), n, "-q"); r.Status == 0 {
		t.Error("unsimulated mode must fail")
	}
}
