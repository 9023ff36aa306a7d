package nvtopo

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/provadev/prova/internal/testkit/samples"
	"github.com/provadev/prova/parse"
)

func TestTopo2GPUNoNIC(t *testing.T) {
	m, err := ParseTopo(samples.Read(t, "nvidia-smi-topo/topo-m-2gpu-sys-no-nic-sglang-issue.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if !cmp.Equal(m.GPUs, []string{"GPU0", "GPU1"}) || len(m.NICs) != 0 {
		t.Errorf("devices: gpus %q nics %q", m.GPUs, m.NICs)
	}
	if m.Relation("GPU0", "GPU1") != "SYS" || m.Relation("GPU1", "GPU1") != "X" {
		t.Errorf("relations = %v", m.Relations)
	}
	want := Affinity{CPU: "1,3,5,7,9,11", NUMA: "1", GPUNUMAID: "N/A"}
	if m.Affinity["GPU1"] != want {
		t.Errorf("GPU1 affinity = %+v", m.Affinity["GPU1"])
	}
	if n := m.NearestNICs(); len(n) != 0 {
		t.Errorf("nearest NICs without NICs: %+v", n)
	}
}

func TestTopo4GPUNICLegend(t *testing.T) {
	m, err := ParseTopo(samples.Read(t, "nvidia-smi-topo/topo-m-4gpu-nv18-4nic-nic-legend-go-fixture.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if !cmp.Equal(m.NICs, []string{"NIC0", "NIC1", "NIC2", "NIC3"}) || m.NICNames["NIC2"] != "mlx5_2" || len(m.NICNames) != 4 {
		t.Errorf("nics %q names %v", m.NICs, m.NICNames)
	}
	if m.Relation("GPU0", "GPU3") != "NV18" {
		t.Errorf("GPU0-GPU3 = %q", m.Relation("GPU0", "GPU3"))
	}
	// By legend name, both directions; NIC1 row says GPU3 is PXB.
	if m.Relation("mlx5_1", "GPU3") != "PXB" || m.Relation("GPU3", "mlx5_1") != "PXB" || m.Relation("NIC0", "NIC1") != "PIX" {
		t.Errorf("relations by name wrong: %v", m.Relations)
	}
	if m.Relation("GPU0", "mlx5_9") != "" {
		t.Error("unknown device has a relation")
	}
	if a := m.Affinity["GPU2"]; a.CPU != "0-55,112-167" || a.NUMA != "0" || a.GPUNUMAID != "N/A" {
		t.Errorf("GPU2 affinity = %+v", a)
	}
	if _, ok := m.Affinity["NIC0"]; ok {
		t.Error("NIC row got affinity")
	}
	want := []GPUNIC{
		{GPU: "GPU0", NIC: "mlx5_0", Column: "NIC0", Relation: "PXB"},
		{GPU: "GPU1", NIC: "mlx5_3", Column: "NIC3", Relation: "PXB"},
		{GPU: "GPU2", NIC: "mlx5_2", Column: "NIC2", Relation: "PXB"},
		{GPU: "GPU3", NIC: "mlx5_1", Column: "NIC1", Relation: "PXB"},
	}
	if diff := cmp.Diff(want, m.NearestNICs()); diff != "" {
		t.Errorf("nearest NICs (-want +got):\n%s", diff)
	}
}

func TestTopo8GPUOldNICNames(t *testing.T) {
	m, err := ParseTopo(samples.Read(t, "nvidia-smi-topo/topo-m-8gpu-nvlink-nv1-nv2-mlx5_0-driver440.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if len(m.GPUs) != 8 || !cmp.Equal(m.NICs, []string{"mlx5_0"}) || m.NICNames != nil {
		t.Errorf("gpus %q nics %q names %v", m.GPUs, m.NICs, m.NICNames)
	}
	if m.Relation("GPU0", "GPU3") != "NV2" || m.Relation("GPU0", "GPU5") != "SYS" || m.Relation("GPU6", "GPU2") != "NV1" {
		t.Errorf("GPU relations wrong")
	}
	if a := m.Affinity["GPU4"]; a.CPU != "12-23,36-47" || a.NUMA != "" {
		t.Errorf("GPU4 affinity = %+v", a)
	}
	near := m.NearestNICs()
	if len(near) != 8 {
		t.Fatalf("nearest = %+v", near)
	}
	for i, want := range []string{"NODE", "NODE", "PIX", "PIX", "SYS", "SYS", "SYS", "SYS"} {
		if near[i].NIC != "mlx5_0" || near[i].Relation != want {
			t.Errorf("GPU%d nearest = %+v, want mlx5_0 %s", i, near[i], want)
		}
	}
}

func TestTopoTabs(t *testing.T) {
	in := "\tGPU0\tGPU1\tNIC0\tCPU Affinity\tNUMA Affinity\tGPU NUMA ID\n" +
		"GPU0\t X \tNV4\tPHB\t0-31\t0\t\tN/A\n" +
		"GPU1\tNV4\t X \tSOC\t32-63\t1\t\tN/A\n" +
		"NIC0\tPHB\tSOC\t X \n\nLegend:\n\n  X    = Self\n\nNIC Legend:\n\n  NIC0: mlx5_bond_0\n"
	m, err := ParseTopo([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	if m.Relation("GPU1", "mlx5_bond_0") != "SOC" || m.Affinity["GPU1"].NUMA != "1" {
		t.Errorf("matrix = %+v", m)
	}
	near := m.NearestNICs()
	if len(near) != 2 || near[0].Relation != "PHB" || near[1].NIC != "mlx5_bond_0" || near[1].Relation != "SOC" {
		t.Errorf("nearest = %+v", near)
	}
}

func TestRank(t *testing.T) {
	order := []string{"X", "PIX", "PXB", "PHB", "NODE", "SYS"}
	for i := 1; i < len(order); i++ {
		if Rank(order[i-1]) >= Rank(order[i]) {
			t.Errorf("Rank(%s) >= Rank(%s)", order[i-1], order[i])
		}
	}
	if Rank("SOC") != Rank("SYS") || Rank("NV12") != -1 || Rank("NVx") != 99 || Rank("") != 99 {
		t.Error("special ranks wrong")
	}
}

func TestTopoNoGPU(t *testing.T) {
	for _, in := range []string{
		"NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver. Make sure that the latest NVIDIA driver is installed and running.\n\n",
		"No devices were found\n",
	} {
		m, err := ParseTopo([]byte(in))
		if err != nil || !m.NoGPU || m.Message == "" || len(m.NearestNICs()) != 0 {
			t.Errorf("%q: %+v, %v", in, m, err)
		}
	}
}

func TestTopoErrors(t *testing.T) {
	hdr := "        GPU0    GPU1    NIC0\n"
	for _, tc := range []struct {
		in   string
		line int
	}{
		{"", 0},
		{"hello world\n", 1},
		{hdr + "GPU0     X      NV1\n", 2},
		{hdr + "GPU9     X      NV1     PIX\n", 2},
		{hdr + "GPU0     X      nv1     PIX\n", 2},
		{hdr + "GPU0     X      NV1     PIX\nGPU0     X      NV1     PIX\n", 3},
		{hdr + "\nLegend:\n", 2},
		{hdr + "GPU0     X      NV1     PIX\n\nLegend:\n  X = Self\nsomething else\n", 6},
	} {
		_, err := ParseTopo([]byte(tc.in))
		var pe *parse.Error
		if !errors.As(err, &pe) || pe.Tool != "nvidia-smi topo -m" || pe.Line != tc.line {
			t.Errorf("%q: error %v, want line %d", strings.SplitN(tc.in, "\n", 3)[1:], err, tc.line)
		}
	}
}

func TestEverySampleExercised(t *testing.T) {
	used := map[string]bool{
		"nvidia-smi-topo/topo-m-2gpu-sys-no-nic-sglang-issue.txt":         true,
		"nvidia-smi-topo/topo-m-4gpu-nv18-4nic-nic-legend-go-fixture.txt": true,
		"nvidia-smi-topo/topo-m-8gpu-nvlink-nv1-nv2-mlx5_0-driver440.txt": true,
	}
	for _, rel := range samples.Glob(t, "nvidia-smi-topo/*") {
		if !used[rel] {
			t.Errorf("sample %s has no test", rel)
		}
	}
}

func FuzzTopo(f *testing.F) {
	for _, rel := range samples.Glob(f, "nvidia-smi-topo/*") {
		f.Add(samples.Read(f, rel))
	}
	f.Add([]byte("\tGPU0\tNIC0\tCPU Affinity\nGPU0\t X \tPIX\t0-3\nNIC0\tPIX\t X \n\nNIC Legend:\n  NIC0: mlx5_0\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := ParseTopo(data)
		if err != nil {
			var pe *parse.Error
			if !errors.As(err, &pe) || pe.Tool == "" || pe.Reason == "" {
				t.Fatalf("error %v (%T) is not a complete *parse.Error", err, err)
			}
			return
		}
		for _, n := range m.NearestNICs() {
			if m.Relation(n.GPU, n.Column) != n.Relation {
				t.Fatalf("nearest %+v disagrees with Relation", n)
			}
		}
	})
}
