package gdscheck

import (
	"context"
	"errors"
	"regexp"
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

// pasted matches what the sample notes call out as not tool output: the
// command lines (with or without a prompt) and the author's "..." cut.
var pasted = regexp.MustCompile(`^(?:\$ \S+\$ )?/\S+/gdscheck(?:\.py)? .*$|^\.\.\.$`)

func toolOutput(t *testing.T, rel string) string {
	t.Helper()
	var b strings.Builder
	for _, l := range strings.Split(string(samples.Read(t, rel)), "\n") {
		if !pasted.MatchString(strings.TrimSpace(l)) {
			b.WriteString(l + "\n")
		}
	}
	return strings.TrimSuffix(b.String(), "\n")
}

const (
	s114 = "gds/gdscheck-p-1.14-rtx6000ada-nvme-supported-full.txt"
	s115 = "gds/gdscheck-p-1.15-nvme-supported-PARTIAL.txt"
	s116 = "gds/gdscheck-p-1.16-nvidia-doc-sample-nvfs-dmabuf-compat.txt"
	sPyV = "gds/gdscheck-py-v-version-doc-sample.txt"
	sIO  = "gds/gdsio-read-gpud-cpuonly-cpu_gpu-and-gdsio_verify.txt"
)

func reply(out moduletest.Reply) func(*moduletest.FakeHost) {
	return func(h *moduletest.FakeHost) { h.Reply(`gdscheck -p$`, out) }
}

func TestConformance(t *testing.T) {
	moduletest.Run(t, New(), moduletest.WithProbes([]moduletest.Case{
		{Name: "sample-1-14", Body: `filesystem = "nvme"`, Setup: reply(moduletest.Reply{Stdout: toolOutput(t, s114)})},
		{Name: "sample-1-16", Body: `filesystem = "gpfs"`, Setup: reply(moduletest.Reply{Stdout: toolOutput(t, s116)})},
		{Name: "not-installed", Body: `path = "/opt/gds/gdscheck"`, Setup: func(h *moduletest.FakeHost) {
			h.Reply(`gdscheck`, moduletest.Reply{RC: 127, Stderr: "sh: 1: /opt/gds/gdscheck: not found\n"})
		}},
	}, `gdscheck -p$`, `^cat -- /etc/cufile\.json$`, `^cat /proc/cmdline$`))
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

// run applies the module to a host whose gdscheck prints stdout/stderr;
// more set up the host's other commands (cat of cufile.json, /proc/cmdline).
func run(t *testing.T, body string, r moduletest.Reply, more ...func(*moduletest.FakeHost)) (module.ApplyResponse, map[string]cty.Value) {
	t.Helper()
	h := moduletest.NewFakeHost("gpu01")
	reply(r)(h)
	for _, m := range more {
		m(h)
	}
	resp, err := New().Apply(context.Background(), module.ApplyRequest{Host: h, Args: decode(t, body)})
	if err != nil {
		t.Fatal(err)
	}
	if resp.Failed {
		t.Fatalf("a gdscheck result is never a failure: %+v", resp)
	}
	return resp, resp.Outputs.AsValueMap()
}

func str(v cty.Value) string {
	if v.IsNull() {
		return "<null>"
	}
	return v.AsString()
}

func TestSample114(t *testing.T) {
	resp, o := run(t, `filesystem = "gpfs"`, moduletest.Reply{Stdout: toolOutput(t, s114)})
	if !o["installed"].True() || str(o["gds_version"]) != "1.14.0.30" || str(o["nvidia_fs_version"]) != "2.24" ||
		!o["nvidia_fs_loaded"].True() || str(o["libcufile_version"]) != "2.12" {
		t.Errorf("versions: %v", o)
	}
	if o["fs_supported"].True() || !o["filesystems"].Index(cty.StringVal("NVMe")).GetAttr("supported").True() {
		t.Errorf("gpfs must be unsupported, NVMe supported: %v", o["filesystems"])
	}
	if o["iommu_enabled"].True() || !o["platform_verified"].True() || !o["has_gpu"].True() || o["rdma_ready"].True() {
		t.Errorf("platform: %v", o)
	}
	gpus := o["gpus"].AsValueSlice()
	if len(gpus) != 2 || str(gpus[1].GetAttr("name")) != "NVIDIA RTX 6000 Ada Generation" || !gpus[1].GetAttr("supported").True() {
		t.Errorf("gpus %v", gpus)
	}
	want := []string{"Mellanox PeerDirect: Enabled", "rdma library: Not Loaded (libcufile_rdma.so)", "rdma devices: Not configured", "rdma_device_status: Up: 0 Down: 0"}
	if got := strs(o["rdma"]); strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("rdma = %q", got)
	}
	if resp.Evidence["gdscheck -p"] != toolOutput(t, s114) {
		t.Error("evidence is not the raw output")
	}
	if resp.Message != "GDS 1.14.0.30, nvidia_fs 2.24, IOMMU disabled, data path compat, gpfs not supported, 2 GPU(s)" {
		t.Errorf("message %q", resp.Message)
	}
}

func strs(v cty.Value) []string {
	var out []string
	for _, e := range v.AsValueSlice() {
		out = append(out, e.AsString())
	}
	return out
}

func TestSample115Partial(t *testing.T) {
	_, o := run(t, `filesystem = "NVMe"`, moduletest.Reply{Stdout: toolOutput(t, s115)})
	if str(o["gds_version"]) != "1.15.0.42" || !o["fs_supported"].True() || len(o["gpus"].AsValueSlice()) != 0 || o["has_gpu"].True() {
		t.Errorf("1.15: %v", o)
	}
}

func TestSample116Capabilities(t *testing.T) {
	_, o := run(t, `filesystem = "weka"`, moduletest.Reply{Stdout: toolOutput(t, s116)})
	if !o["fs_supported"].True() || str(o["libcufile_version"]) != "<null>" || str(o["nvidia_fs_version"]) != "2.27" || !o["rdma_ready"].True() {
		t.Errorf("1.16: %v", o)
	}
	gpfs := o["filesystems"].Index(cty.StringVal("IBM Spectrum Scale"))
	if !gpfs.GetAttr("supported").True() || strings.Join(strs(gpfs.GetAttr("capabilities")), ",") != "dmabuf,compat" {
		t.Errorf("gpfs %v", gpfs)
	}
	if nfs := o["filesystems"].Index(cty.StringVal("NFS")); nfs.GetAttr("supported").True() || str(nfs.GetAttr("value")) != "compat" {
		t.Errorf("compat alone is not GPUDirect: %v", nfs)
	}
	for fs, want := range map[string]bool{"vast": false, "cephfs": false, "gpfs": true, "IBM Spectrum Scale": true} {
		if _, o := run(t, `filesystem = "`+fs+`"`, moduletest.Reply{Stdout: toolOutput(t, s116)}); o["fs_supported"].True() != want {
			t.Errorf("fs_supported(%s) = %v, want %t", fs, o["fs_supported"], want)
		}
	}
	if _, o := run(t, ``, moduletest.Reply{Stdout: toolOutput(t, s116)}); !o["fs_supported"].IsNull() {
		t.Errorf("fs_supported without filesystem = %v", o["fs_supported"])
	}
}

// gdscheck.py -v prints only the version lines: a result, with nothing
// else known.
func TestSamplePyVersion(t *testing.T) {
	_, o := run(t, ``, moduletest.Reply{Stdout: toolOutput(t, sPyV)})
	if str(o["gds_version"]) != "1.0.0.78" || str(o["nvidia_fs_version"]) != "2.7" || o["platform_verified"].True() || o["has_gpu"].True() {
		t.Errorf("py -v: %v", o)
	}
}

// Output that is not gdscheck's (here gdsio's) is an error naming the tool
// and the line it could not read.
func TestUnexpectedOutput(t *testing.T) {
	h := moduletest.NewFakeHost("gpu01")
	reply(moduletest.Reply{Stdout: toolOutput(t, sIO)})(h)
	_, err := New().Apply(context.Background(), module.ApplyRequest{Host: h, Args: decode(t, ``)})
	var pe *parse.Error
	if !errors.As(err, &pe) || pe.Tool != "gdscheck" || pe.Line == 0 || !strings.Contains(err.Error(), "gpu01") {
		t.Fatalf("err = %v, want a parse error naming gdscheck, the line and the host", err)
	}
}

// A non-root run's warn: line on stderr, a host without GPU, IOMMU enabled
// (as real gdscheck 1.11+ prints it: verification still succeeds) and a
// missing binary are results.
func TestClearResults(t *testing.T) {
	warn := "warn: error opening log file: Permission denied, logging will be disabled\n"
	resp, o := run(t, ``, moduletest.Reply{Stderr: warn, Stdout: toolOutput(t, s114)})
	if w := strs(o["warnings"]); len(w) != 1 || !strings.HasPrefix(w[0], "error opening log file") || !strings.HasPrefix(resp.Evidence["gdscheck -p"], "warn:") {
		t.Errorf("warnings %q evidence %q", w, resp.Evidence["gdscheck -p"][:20])
	}
	iommu := strings.Replace(toolOutput(t, s114), " IOMMU: disabled\n", " IOMMU: Pass-through or enabled\n WARN: GDS is not guaranteed to work functionally or in a performant way with iommu=on/pt\n", 1)
	_, o = run(t, ``, moduletest.Reply{Stdout: iommu})
	if !o["iommu_enabled"].True() || !o["platform_verified"].True() || len(strs(o["warnings"])) != 1 {
		t.Errorf("iommu: %v", o)
	}
	noGPU := " No GPU found in the system, use this library only for sysmem\n GDS release version: 1.18.1.6\n nvidia_fs minimum version: 2.12\n" +
		" Platform: x86_64\n =====================\n DRIVER CONFIGURATION:\n =====================\n NVMe               : compat\n" +
		" IBM Spectrum Scale : compat\n Userspace RDMA     : Unsupported\n"
	resp, o = run(t, `filesystem = "gpfs"`, moduletest.Reply{Stdout: noGPU})
	if o["has_gpu"].True() || o["nvidia_fs_loaded"].True() || !o["nvidia_fs_version"].IsNull() || o["fs_supported"].True() || !strings.Contains(resp.Message, "no GPU") {
		t.Errorf("no gpu: %v %q", o, resp.Message)
	}
	resp, o = run(t, `filesystem = "gpfs"`, moduletest.Reply{RC: 127, Stderr: "sh: 1: /usr/local/cuda/gds/tools/gdscheck: not found\n"})
	if o["installed"].True() || !o["gds_version"].IsNull() || o["fs_supported"].True() || resp.Evidence != nil || resp.RC != 127 ||
		resp.Message != "/usr/local/cuda/gds/tools/gdscheck not found: GPUDirect Storage is not installed" {
		t.Errorf("missing: %v %+v", o, resp)
	}
}

func TestBadArgumentsAndUnreachable(t *testing.T) {
	f, _ := hclsyntax.ParseConfig([]byte(`path = ""`), "s.hcl", hcl.InitialPos)
	if _, diags := hcldec.Decode(f.Body, New().Spec(), nil); !diags.HasErrors() || diags[0].Summary != "Empty path" {
		t.Errorf("empty path: %v", diags)
	}
	h := moduletest.NewFakeHost("gpu01")
	h.Unreachable()
	if _, err := New().Apply(context.Background(), module.ApplyRequest{Host: h, Args: decode(t, ``)}); !module.IsUnreachable(err) {
		t.Errorf("unreachable: %v", err)
	}
}
