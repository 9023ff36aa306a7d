package gds

import (
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/provadev/prova/internal/testkit/samples"
	"github.com/provadev/prova/lab/model"
	"github.com/provadev/prova/lab/sim/simtest"
)

func release(v string) *model.GDS { g := model.GDSReleases[v]; return &g }

// sampleLines returns a sample's lines without the pasted command line and
// the author's "..." cut marker.
func sampleLines(t *testing.T, rel string) []string {
	t.Helper()
	var out []string
	for _, l := range strings.Split(strings.TrimRight(string(samples.Read(t, rel)), "\n"), "\n") {
		if strings.Contains(l, "gds/tools/gdscheck") || l == "..." {
			continue
		}
		out = append(out, l)
	}
	return out
}

var platformLine = regexp.MustCompile(`^ ?Platform: .*, Arch: .*$`)

// The 1.14 host rebuilt from a model (two RTX 6000 Ada, local NVMe,
// nvidia_fs, OFED, GDS RDMA not configured): every line matches but the
// board name.
func TestReport114MatchesSample(t *testing.T) {
	ada := model.GPU{Model: "NVIDIA RTX 6000 Ada Generation"}
	n := &model.Node{Name: "dev", Kernel: "6.8.0-60-generic", OFED: "MLNX_OFED_LINUX-24.10", NvidiaFS: true, NVMeDrives: 1,
		GPUs: []model.GPU{ada, ada}, GDS: release("1.14")}
	r := simtest.Run(t, Tool(), n, "-p")
	got := strings.Split(strings.TrimRight(r.Stdout, "\n"), "\n")
	want := sampleLines(t, "gds/gdscheck-p-1.14-rtx6000ada-nvme-supported-full.txt")
	for _, ls := range [][]string{got, want} {
		for i, l := range ls {
			ls[i] = platformLine.ReplaceAllString(l, "BOARD")
		}
	}
	if d := cmp.Diff(want, got); d != "" || r.Status != 0 || r.Stderr != "" {
		t.Errorf("gdscheck -p (-sample +sim):\n%s\nstatus %d stderr %q", d, r.Status, r.Stderr)
	}
}

// The 1.15 partial sample (CUFILE and GPU INFO cut by its author): the
// lines it kept appear in order in the simulator's output.
func TestReport115MatchesPartialSample(t *testing.T) {
	n := &model.Node{Name: "jp", Kernel: "4.18.0-553.69.1.el8_10.x86_64", NvidiaFS: true, NVMeDrives: 2,
		GPUs: []model.GPU{{Model: "NVIDIA A100 80GB PCIe"}}, GDS: release("1.15")}
	got := strings.Split(simtest.Run(t, Tool(), n, "-p").Stdout, "\n")
	k := 0
	for _, w := range sampleLines(t, "gds/gdscheck-p-1.15-nvme-supported-PARTIAL.txt") {
		w = " " + strings.TrimPrefix(w, " ") // the paste lost the first line's space
		if platformLine.MatchString(w) {
			continue
		}
		for k < len(got) && got[k] != w {
			k++
		}
		if k == len(got) {
			t.Fatalf("sample line %q not found in order in:\n%s", w, strings.Join(got, "\n"))
		}
	}
}

var spaces = regexp.MustCompile(`\s+`)

func collapse(lines []string) []string {
	out := make([]string, 0, len(lines))
	for _, l := range lines {
		l = spaces.ReplaceAllString(strings.TrimSpace(l), " ")
		if l != "" {
			out = append(out, l)
		}
	}
	return out
}

// The 1.16 vendor sample (its padding collapsed by a markdown conversion):
// same lines with whitespace collapsed, except the FSx Lustre entry that
// real 1.16 hosts do not print and the board name.
func TestReport116MatchesDocSample(t *testing.T) {
	n := &model.Node{Name: "doc", Kernel: "5.14.0-570.25.1.el9_6.x86_64", NvidiaFS: true, NVMeDrives: 1,
		FileSystems: []string{"gpfs", "weka"}, GPUs: []model.GPU{{Model: "NVIDIA L4"}}, GDS: release("1.16"),
		HCAs: []model.HCA{{Name: "mlx5_0", Ports: []model.Port{{Num: 1, State: "Active", PhysState: "LinkUp"}}}}}
	got := collapse(strings.Split(simtest.Run(t, Tool(), n, "-p").Stdout, "\n"))
	var want []string
	for _, l := range collapse(sampleLines(t, "gds/gdscheck-p-1.16-nvidia-doc-sample-nvfs-dmabuf-compat.txt")) {
		if l != "FSx Lustre : Supported" {
			want = append(want, l)
		}
	}
	for _, ls := range [][]string{got, want} {
		for i, l := range ls {
			ls[i] = platformLine.ReplaceAllString(l, "BOARD")
		}
	}
	// The vendor sample's NVMe..VIRTIOFS order differs only where it lists
	// FSx Lustre; compare as ordered lists after that removal.
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("gdscheck -p 1.16 (-sample +sim, whitespace collapsed):\n%s", d)
	}
}

func TestReportFaults(t *testing.T) {
	ready := func() *model.Node {
		return &model.Node{Name: "n", Kernel: "k", NvidiaFS: true, FileSystems: []string{"gpfs"}, OFED: "x",
			GPUs: []model.GPU{{Model: "NVIDIA H100 80GB HBM3"}}, GDS: release("1.16"),
			HCAs: []model.HCA{{Name: "mlx5_0", Ports: []model.Port{{Num: 1, State: "Active", PhysState: "LinkUp"}, {Num: 2, State: "Down"}}}}}
	}
	for _, tc := range []struct {
		name      string
		change    func(*model.Node)
		want, not []string
	}{
		{"ready", func(*model.Node) {}, []string{
			" nvidia_fs version:  2.27 nvidia_fs minimum version: 2.12\n", " IBM Spectrum Scale : dmabuf, compat\n",
			" --rdma_device_status  : Up: 1 Down: 1\n", " Userspace RDMA     : Supported\n", " IOMMU: disabled\n",
			"bar size (MiB):131072 supports GDS, IOMMU State: Disabled\n", " Platform verification succeeded\n"},
			[]string{"No GPU", "WARN"}},
		{"iommu", func(n *model.Node) { n.IOMMU = true }, []string{
			" IOMMU: Pass-through or enabled\n WARN: GDS is not guaranteed", "IOMMU State: Pass-through or Enabled\n"},
			[]string{"IOMMU: disabled"}},
		{"no-nvidia-fs", func(n *model.Node) { n.NvidiaFS = false }, []string{
			" GDS release version: 1.16.0.49\n nvidia_fs minimum version: 2.12\n", " IBM Spectrum Scale : compat\n",
			" --rdma library        : Not Loaded (libcufile_rdma.so)\n"}, []string{"nvidia_fs version"}},
		{"cephfs-only", func(n *model.Node) { n.FileSystems = []string{"ceph"} }, []string{
			" IBM Spectrum Scale : compat\n", " Userspace RDMA     : Unsupported\n"}, []string{"Ceph", "dmabuf, compat"}},
		{"no-gpu", func(n *model.Node) { n.GPUs = nil }, []string{
			" No GPU found in the system, use this library only for sysmem\n GDS release version: 1.16.0.49\n nvidia_fs minimum version: 2.12\n",
			" IBM Spectrum Scale : compat\n", " --DmaBuf support      : Disabled\n"},
			[]string{"GPU INFO", "nvidia_fs version", "Cuda Driver"}},
		{"old-vocabulary", func(n *model.Node) { n.GDS = release("1.14") }, []string{
			" nvidia_fs version:  2.24 libcufile version: 2.12\n", " IBM Spectrum Scale : Supported\n",
			" --Mellanox PeerDirect : Enabled\n", " NVMe               : Unsupported\n"}, []string{", compat", ": compat", "DmaBuf"}},
		{"old-no-nvidia-fs", func(n *model.Node) { n.GDS, n.NvidiaFS = release("1.15"), false }, []string{
			" GDS release version: 1.15.0.42\n libcufile version: 2.12\n", " IBM Spectrum Scale : Unsupported\n"}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			n := ready()
			tc.change(n)
			r := simtest.Run(t, Tool(), n, "-p")
			for _, w := range tc.want {
				if !strings.Contains(r.Stdout, w) {
					t.Errorf("missing %q in:\n%s", w, r.Stdout)
				}
			}
			for _, w := range tc.not {
				if strings.Contains(r.Stdout, w) {
					t.Errorf("unexpected %q in:\n%s", w, r.Stdout)
				}
			}
		})
	}
}

func TestVersionAndUsage(t *testing.T) {
	n := &model.Node{Name: "n", NvidiaFS: true, GPUs: []model.GPU{{}}, GDS: release("1.14")}
	if r := simtest.Run(t, Tool(), n, "-v"); r.Stdout != " GDS release version: 1.14.0.30\n nvidia_fs version:  2.24 libcufile version: 2.12\n" || r.Status != 0 {
		t.Errorf("-v = %+v", r)
	}
	if r := simtest.Run(t, Tool(), n, "-x"); r.Status == 0 || !strings.Contains(r.Stderr, "-p and -v") {
		t.Errorf("-x = %+v", r)
	}
	tool := Tool()
	if tool.Installed(&model.Node{GPUs: []model.GPU{{}}}) || !tool.Installed(n) {
		t.Error("gdscheck must be installed exactly where the model has GDS")
	}
	if len(tool.Paths) != 1 || tool.Paths[0] != "/usr/local/cuda/gds/tools/gdscheck" {
		t.Errorf("paths %q", tool.Paths)
	}
}
