package gds

import (
	"errors"
	"regexp"
	"strings"
	"testing"

	"github.com/provadev/prova/internal/testkit/samples"
	"github.com/provadev/prova/parse"
)

// pasted matches what the sample notes call out as not tool output: command
// lines (with or without a prompt) and the author's "..." cut marker.
var pasted = regexp.MustCompile(`^(?:\$ \S+\$ )?/\S+/(?:gdscheck|gdsio|gdsio_verify)(?: .*)?$|^\.\.\.$`)

// toolOutput returns a sample without pasted command lines and cut markers.
func toolOutput(t testing.TB, rel string) []byte {
	t.Helper()
	var b strings.Builder
	for _, l := range strings.Split(string(samples.Read(t, rel)), "\n") {
		if !pasted.MatchString(strings.TrimSpace(l)) {
			b.WriteString(l + "\n")
		}
	}
	return []byte(b.String())
}

func wantParseError(t *testing.T, err error, tool string, line int) {
	t.Helper()
	var pe *parse.Error
	if !errors.As(err, &pe) || pe.Tool != tool || pe.Line != line {
		t.Fatalf("error = %v, want *parse.Error for %s line %d", err, tool, line)
	}
}

func intp(p *int) int {
	if p == nil {
		return -1
	}
	return *p
}

func TestGdscheck114(t *testing.T) {
	c, err := ParseGdscheck(toolOutput(t, "gds/gdscheck-p-1.14-rtx6000ada-nvme-supported-full.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if c.GDSVersion != "1.14.0.30" || c.NvidiaFSVersion != "2.24" || c.LibcufileVersion != "2.12" || c.Arch != "x86_64" {
		t.Errorf("versions = %q %q %q %q", c.GDSVersion, c.NvidiaFSVersion, c.LibcufileVersion, c.Arch)
	}
	if len(c.Drivers) != 13 {
		t.Errorf("%d drivers, want 13", len(c.Drivers))
	}
	nvme, _ := c.Driver("nvme")
	if !nvme.Supported || nvme.Value != "Supported" || len(nvme.Capabilities) != 0 {
		t.Errorf("NVMe = %+v", nvme)
	}
	if g, ok := c.Driver("gpfs"); !ok || g.Supported || g.Name != "IBM Spectrum Scale" {
		t.Errorf("GPFS = %+v, %v", g, ok)
	}
	if p2p, _ := c.Driver("NVMe P2PDMA"); p2p.Supported {
		t.Errorf("NVMe P2PDMA = %+v", p2p)
	}
	r := c.RDMA
	if r.PeerDirect != "Enabled" || r.LibraryLoaded || r.Library != "Not Loaded (libcufile_rdma.so)" || r.DevicesConfigured || intp(r.Up) != 0 || intp(r.Down) != 0 {
		t.Errorf("rdma = %+v", r)
	}
	if c.Cufile["properties.max_direct_io_size_kb"] != "16384" || c.Cufile["fs.gpfs.gds_async_support"] != "true" || c.Cufile["properties.posix_pool_slab_size_kb"] != "4 1024 16384" {
		t.Errorf("cufile = %v", c.Cufile)
	}
	if len(c.GPUs) != 2 {
		t.Fatalf("gpus = %+v", c.GPUs)
	}
	g := c.GPUs[1]
	if g.Index != 1 || g.Name != "NVIDIA RTX 6000 Ada Generation" || intp(g.Bar) != 1 || intp(g.BarSizeMiB) != 65536 || !g.SupportsGDS || g.IOMMUState != "Disabled" {
		t.Errorf("gpu 1 = %+v", g)
	}
	if c.IOMMU != "disabled" || c.IOMMUEnabled || c.CudaDriverVersion != "12090" || !c.PlatformVerified ||
		c.NvidiaDriverStatus != "Supported(Nvidia Open Driver Installed)" ||
		c.Platform != "Puget Rackstation Threadripper PRO WRX90 T141-4U, Arch: x86_64(Linux 6.8.0-60-generic)" {
		t.Errorf("platform = %+v", c)
	}
	if len(c.Other) != 0 || len(c.Errors) != 0 || len(c.Warnings) != 0 {
		t.Errorf("leftovers: other %v errors %q warnings %q", c.Other, c.Errors, c.Warnings)
	}
}

func TestGdscheck115Partial(t *testing.T) {
	c, err := ParseGdscheck(toolOutput(t, "gds/gdscheck-p-1.15-nvme-supported-PARTIAL.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if c.GDSVersion != "1.15.0.42" || c.NvidiaFSVersion != "2.26" || c.LibcufileVersion != "2.12" {
		t.Errorf("versions = %q %q %q", c.GDSVersion, c.NvidiaFSVersion, c.LibcufileVersion)
	}
	if d, _ := c.Driver("ScaTeFS"); d.Name != "ScaTeFS" || d.Supported {
		t.Errorf("ScaTeFS = %+v", d)
	}
	if c.RDMA.PeerDirect != "Disabled" || len(c.GPUs) != 0 || c.Cufile != nil {
		t.Errorf("partial: %+v", c)
	}
	if c.CudaDriverVersion != "13000" || !c.PlatformVerified || c.IOMMUEnabled {
		t.Errorf("platform = %+v", c)
	}
}

func TestGdscheck116Capabilities(t *testing.T) {
	c, err := ParseGdscheck(toolOutput(t, "gds/gdscheck-p-1.16-nvidia-doc-sample-nvfs-dmabuf-compat.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if c.GDSVersion != "1.16.0.49" || c.NvidiaFSVersion != "2.27" || c.NvidiaFSMinVersion != "2.12" || c.LibcufileVersion != "" {
		t.Errorf("versions = %q %q %q %q", c.GDSVersion, c.NvidiaFSVersion, c.NvidiaFSMinVersion, c.LibcufileVersion)
	}
	for _, tc := range []struct {
		name      string
		supported bool
		caps      string
	}{
		{"NVMe", true, "nvfs compat"},
		{"NVMeOF", false, "compat"},
		{"gpfs", true, "dmabuf compat"},
		{"weka", true, "dmabuf compat"},
		{"FSx Lustre", true, ""},
		{"VIRTIOFS", false, "compat"},
		{"Userspace RDMA", true, ""},
	} {
		d, ok := c.Driver(tc.name)
		if !ok || d.Supported != tc.supported || strings.Join(d.Capabilities, " ") != tc.caps {
			t.Errorf("%s = %+v, %v", tc.name, d, ok)
		}
	}
	gpfs, _ := c.Driver("storage scale")
	if !gpfs.Has("dmabuf") || gpfs.Has("nvfs") {
		t.Errorf("gpfs capabilities = %q", gpfs.Capabilities)
	}
	r := c.RDMA
	if r.DmaBuf != "Enabled" || !r.LibraryLoaded || !r.DevicesConfigured || intp(r.Up) != 1 || intp(r.Down) != 0 {
		t.Errorf("rdma = %+v", r)
	}
	if len(c.GPUs) != 1 || c.GPUs[0].Name != "NVIDIA L4" || intp(c.GPUs[0].BarSizeMiB) != 32768 {
		t.Errorf("gpus = %+v", c.GPUs)
	}
	if c.Cufile["block.nvmeof.use_pci_p2pdma"] != "false" || c.CudaDriverVersion != "13010" || !c.PlatformVerified {
		t.Errorf("check = %+v", c)
	}
}

func TestGdscheckPyVersion(t *testing.T) {
	c, err := ParseGdscheck(toolOutput(t, "gds/gdscheck-py-v-version-doc-sample.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if c.GDSVersion != "1.0.0.78" || c.NvidiaFSVersion != "2.7" || c.LibcufileVersion != "2.4" || len(c.Drivers) != 0 || c.PlatformVerified {
		t.Errorf("check = %+v", c)
	}
}

func TestGdscheckClearResults(t *testing.T) {
	in := "warn: error opening log file: Permission denied, logging will be disabled\n" +
		" GDS release version: 1.16.0.49\n nvidia_fs version: Not loaded libcufile version: 2.12\n" +
		" Platform: x86_64\n No GPU found in the system, compat mode only\n" +
		" =====================\n DRIVER CONFIGURATION:\n =====================\n NVMe : compat\n" +
		" ==============\n PLATFORM INFO:\n ==============\n IOMMU: Pass-through or enabled\n Platform verification error: IOMMU enabled\n"
	c, err := ParseGdscheck([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Warnings) != 1 || !strings.HasPrefix(c.Warnings[0], "error opening log file") {
		t.Errorf("warnings = %q", c.Warnings)
	}
	if !c.NoGPU || c.NvidiaFSVersion != "" || c.LibcufileVersion != "2.12" {
		t.Errorf("no gpu / versions: %+v", c)
	}
	if d, _ := c.Driver("NVMe"); d.Supported {
		t.Errorf("compat-only NVMe counted as supported")
	}
	if !c.IOMMUEnabled || c.PlatformVerified || c.PlatformVerification != "error: IOMMU enabled" {
		t.Errorf("platform: %+v", c)
	}
	// No GPU alone is a result too.
	c, err = ParseGdscheck([]byte("No GPU found in the system\n"))
	if err != nil || !c.NoGPU {
		t.Errorf("bare no-GPU: %+v, %v", c, err)
	}
	// A failure message without a version is kept, not a parse error.
	c, err = ParseGdscheck([]byte("cuInit Failed, error CUDA_ERROR_NO_DEVICE\n"))
	if err != nil || len(c.Errors) != 1 {
		t.Errorf("cuInit failure: %+v, %v", c, err)
	}
}

func TestNotInstalled(t *testing.T) {
	for _, tc := range []struct {
		stderr string
		rc     int
		want   bool
	}{
		{"sh: 1: /usr/local/cuda/gds/tools/gdscheck: not found\n", 127, true},
		{"bash: gdscheck: command not found\n", 127, true},
		{"", 127, true},
		{"sh: /usr/local/cuda/gds/tools/gdscheck: No such file or directory\n", 126, true},
		{"warn: error opening log file\n", 0, false},
		{"some failure\n", 1, false},
	} {
		if got := NotInstalled([]byte(tc.stderr), tc.rc); got != tc.want {
			t.Errorf("NotInstalled(%q, %d) = %v", tc.stderr, tc.rc, got)
		}
	}
	c, err := ParseRun(nil, []byte("sh: 1: gdscheck: not found"), 127)
	if err != nil || !c.NotInstalled {
		t.Errorf("ParseRun missing: %+v, %v", c, err)
	}
	c, err = ParseRun(toolOutput(t, "gds/gdscheck-py-v-version-doc-sample.txt"), []byte("warn: cannot open log"), 0)
	if err != nil || c.NotInstalled || c.GDSVersion != "1.0.0.78" || len(c.Warnings) != 1 {
		t.Errorf("ParseRun ok: %+v, %v", c, err)
	}
}

func TestGdscheckErrors(t *testing.T) {
	_, err := ParseGdscheck(nil)
	wantParseError(t, err, "gdscheck", 0)
	_, err = ParseGdscheck([]byte(" GDS release version: 1.14.0.30\n ...\n"))
	wantParseError(t, err, "gdscheck", 2)
	_, err = ParseGdscheck([]byte("GDS release version: 1.14\n=========\nGPU INFO:\n=========\nGPU index x NVIDIA\n"))
	wantParseError(t, err, "gdscheck", 5)
}

func TestEverySampleExercised(t *testing.T) {
	used := map[string]bool{
		"gds/gdscheck-p-1.14-rtx6000ada-nvme-supported-full.txt":       true,
		"gds/gdscheck-p-1.15-nvme-supported-PARTIAL.txt":               true,
		"gds/gdscheck-p-1.16-nvidia-doc-sample-nvfs-dmabuf-compat.txt": true,
		"gds/gdscheck-py-v-version-doc-sample.txt":                     true,
		"gds/gdsio-read-gpud-cpuonly-cpu_gpu-and-gdsio_verify.txt":     true,
		"gds/cufile-json-default-nvidia-config-guide.txt":              true,
		sNvfs: true,
	}
	for _, rel := range samples.Glob(t, "gds/*") {
		if !used[rel] {
			t.Errorf("sample %s has no test", rel)
		}
	}
}

func TestNvidiaFSMinimumVersionAlone(t *testing.T) {
	in := " GDS release version: 1.16.0.49\n nvidia_fs minimum version: 2.12 libcufile version: 2.12\n ============\n ENVIRONMENT:\n ============\n"
	c, err := ParseGdscheck([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	if c.NvidiaFSMinVersion != "2.12" || c.NvidiaFSVersion != "" {
		t.Fatalf("min %q version %q", c.NvidiaFSMinVersion, c.NvidiaFSVersion)
	}
}
