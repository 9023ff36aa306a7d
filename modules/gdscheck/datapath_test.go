package gdscheck

import (
	"strings"
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/provadev/prova/engine/module/moduletest"
	"github.com/provadev/prova/internal/testkit/samples"
)

const sCufile = "gds/cufile-json-default-nvidia-config-guide.txt"

func cufile(text string) func(*moduletest.FakeHost) {
	return func(h *moduletest.FakeHost) {
		h.Reply(`^cat -- /etc/cufile\.json$`, moduletest.Reply{Stdout: text})
	}
}

func cmdline(text string) func(*moduletest.FakeHost) {
	return func(h *moduletest.FakeHost) { h.Reply(`^cat /proc/cmdline$`, moduletest.Reply{Stdout: text}) }
}

// Issue 19.4: gdscheck's 1.16 doc sample says IBM Spectrum Scale is
// "dmabuf, compat", which the old verdict read as GDS ready. With NVIDIA's
// default cufile.json (rdma_dev_addr_list empty) every GPFS read goes
// through host memory: NVIDIA's compatibility-mode table says so for GPFS
// and WekaFS mounts without rdma_dev_addr_list.
func TestDataPath(t *testing.T) {
	def := string(samples.Read(t, sCufile))
	withAddr := strings.Replace(def, `"rdma_dev_addr_list": [],`, `"rdma_dev_addr_list": ["10.0.1.241"],`, 1)
	forced := strings.Replace(withAddr, `"allow_compat_mode": true,`, `"allow_compat_mode": true, "force_compat_mode": true,`, 1)
	noBAR := strings.ReplaceAll(toolOutput(t, s116), "supports GDS", "GDS not supported")
	for _, c := range []struct {
		name, fs, gdscheck, cufile, want, why string
	}{
		{"gpfs without rdma_dev_addr_list", "gpfs", toolOutput(t, s116), def, "compat", "no rdma_dev_addr_list for gpfs"},
		{"gpfs with it", "gpfs", toolOutput(t, s116), withAddr, "rdma", "gpfs over RDMA"},
		{"force_compat_mode", "gpfs", toolOutput(t, s116), forced, "compat", "force_compat_mode"},
		{"no GPU with GDS", "gpfs", noBAR, withAddr, "compat", "no GPU supports GDS"},
		{"local nvme", "nvme", toolOutput(t, s114), def, "native", "nvidia_fs 2.24 loaded"},
		{"cufile.json unreadable, gpfs", "gpfs", toolOutput(t, s116), "", "unknown", "cufile.json not read"},
	} {
		t.Run(c.name, func(t *testing.T) {
			more := []func(*moduletest.FakeHost){}
			if c.cufile != "" {
				more = append(more, cufile(c.cufile))
			}
			_, o := run(t, `filesystem = "`+c.fs+`"`, moduletest.Reply{Stdout: c.gdscheck}, more...)
			if got := str(o["data_path"]); got != c.want || !strings.Contains(strings.Join(strs(o["data_path_reasons"]), "; "), c.why) {
				t.Errorf("data_path = %s (%v), want %s because %q", got, o["data_path_reasons"], c.want, c.why)
			}
		})
	}
	_, o := run(t, `filesystem = "gpfs"`, moduletest.Reply{Stdout: noBAR}, cufile(withAddr))
	if g := o["gpus_without_gds"].AsValueSlice(); len(g) != 1 || !g[0].Equals(cty.NumberIntVal(0)).True() {
		t.Errorf("gpus_without_gds = %v", g)
	}
	_, o = run(t, `filesystem = "gpfs"`, moduletest.Reply{Stdout: toolOutput(t, s116)}, cufile(withAddr))
	if !o["compat_allowed"].True() || !o["compat_forced"].IsNull() || strings.Join(strs(o["rdma_dev_addr_list"]), ",") != "10.0.1.241" ||
		!strings.Contains(strings.Join(strs(o["warnings"]), ";"), "allow_compat_mode") {
		t.Errorf("cufile outputs: %v", o)
	}
}

// Issue 19.6: a missing IOMMU line is unknown, not disabled; iommu=pt on
// the kernel command line is passthrough.
func TestIOMMUMode(t *testing.T) {
	noLine := strings.Replace(toolOutput(t, s114), " IOMMU: disabled\n", "", 1)
	_, o := run(t, ``, moduletest.Reply{Stdout: noLine})
	if str(o["iommu"]) != "unknown" || !o["iommu_enabled"].IsNull() {
		t.Errorf("no IOMMU line: iommu %v enabled %v", o["iommu"], o["iommu_enabled"])
	}
	on := strings.Replace(toolOutput(t, s114), " IOMMU: disabled\n", " IOMMU: Pass-through or enabled\n", 1)
	for cl, want := range map[string]string{"BOOT_IMAGE=/vmlinuz intel_iommu=on iommu=pt quiet\n": "passthrough", "BOOT_IMAGE=/vmlinuz intel_iommu=on\n": "enabled"} {
		if _, o := run(t, ``, moduletest.Reply{Stdout: on}, cmdline(cl)); str(o["iommu"]) != want || !o["iommu_enabled"].True() {
			t.Errorf("%q: iommu %v", cl, o["iommu"])
		}
	}
	if _, o := run(t, ``, moduletest.Reply{Stdout: toolOutput(t, s114)}); str(o["iommu"]) != "disabled" || o["iommu_enabled"].True() {
		t.Errorf("disabled: %v", o["iommu"])
	}
}
