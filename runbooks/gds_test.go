package runbooks_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/provadev/prova/engine/event"
	"github.com/provadev/prova/engine/module"
	"github.com/provadev/prova/engine/program"
	"github.com/provadev/prova/inventory"
	"github.com/provadev/prova/lab/labtest"
	"github.com/provadev/prova/modules/assert"
	"github.com/provadev/prova/modules/cephmessenger"
	"github.com/provadev/prova/modules/gdscheck"
	"github.com/provadev/prova/modules/gdsgpfs"
	"github.com/provadev/prova/modules/gdsread"
	"github.com/provadev/prova/modules/gputopology"
	"github.com/provadev/prova/modules/rdmaports"
	"github.com/provadev/prova/modules/shell"
	"github.com/provadev/prova/runbooks/runbooktest"
)

const (
	gdsRunbook  = "gds-readiness.hcl"
	cephRunbook = "ceph-rdma-guard.hcl"
)

func gdsRegistry() *module.Registry {
	r := module.NewRegistry()
	for _, m := range []module.Module{shell.New(), assert.New(), rdmaports.New(), gdscheck.New(), gdsgpfs.New(), gdsread.New(), gputopology.New(), cephmessenger.New()} {
		r.Register(m)
	}
	return r
}

func TestGDSAndCephRunbooksValidate(t *testing.T) {
	inv, diags := inventory.FromList("gds01,gds02")
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	for _, c := range []struct {
		rb   string
		vars []string
	}{
		{gdsRunbook, nil},
		{gdsRunbook, []string{`rdma_ports=["mlx5_0/1"]`, "filesystem=weka", "gpu_hosts=gds0*"}},
		{cephRunbook, nil},
		{cephRunbook, []string{"waive=true", "justification=benchmark cluster"}},
	} {
		prog, scope := runbooktest.Load(t, c.rb, inv, runbooktest.Options{Registry: gdsRegistry(), Vars: c.vars})
		if d := program.Validate(prog, scope); d.HasErrors() {
			t.Errorf("%s %v: %s", c.rb, c.vars, d.Error())
		}
	}
}

// gdsLab runs runbook rb against a lab of example scenario name.
func gdsLab(t *testing.T, name, rb string, vars ...string) runbooktest.Result {
	t.Helper()
	if testing.Short() {
		t.Skip("lab test")
	}
	sc, err := filepath.Abs(filepath.Join("..", "examples", "lab", name))
	if err != nil {
		t.Fatal(err)
	}
	l := labtest.Start(t, 0, sc)
	return runbooktest.Run(t, l, rb, runbooktest.Options{Registry: gdsRegistry(), Vars: vars})
}

// gdsTestFile is the file the runbook's gds_read step reads on the lab's
// GPFS mount.
const gdsTestFile = "/gpfs/fs0/gds-check/64M.bin"

// gdsStatus is the status and message of step on host.
func gdsStatus(t *testing.T, r runbooktest.Result, step, host string) event.HostFinished {
	t.Helper()
	for _, f := range r.Finished(step) {
		if f.Host == host {
			return f
		}
	}
	t.Fatalf("step %s did not finish on %s:\n%s", step, host, r.Describe())
	return event.HostFinished{}
}

func TestGDSReadyLab(t *testing.T) {
	t.Parallel()
	r := gdsLab(t, "gds-ready.hcl", gdsRunbook, `rdma_ports=["mlx5_0/1","mlx5_1/1"]`, "gds_test_file="+gdsTestFile)
	if r.Outcome.Failed {
		t.Fatalf("ready nodes failed:\n%s", r.Describe())
	}
	for _, h := range []string{"gds01", "gds02"} {
		if f := gdsStatus(t, r, "gpu_near_nic", h); f.Status != event.OK {
			t.Errorf("%s topology: %s %s", h, f.Status, f.Message)
		}
		f := gdsStatus(t, r, "gds_ready", h)
		if f.Status != event.OK || len(f.Checks) != 9 {
			t.Fatalf("%s: %s %s %+v", h, f.Status, f.Message, f.Checks)
		}
		measured := map[string]string{}
		for _, c := range f.Checks {
			if c.Verdict != "pass" {
				t.Errorf("%s check %+v", h, c)
			}
			measured[c.Name] = c.Measured
		}
		if measured["GDS installed"] != "1.16.0.49" || measured["nvidia_fs loaded"] != "2.27" || measured["IOMMU by platform"] != "disabled" ||
			!strings.HasPrefix(measured["GDS data path (not compatibility mode)"], "rdma: gpfs over RDMA") || measured["every GPU supports GDS"] != "all 4" ||
			measured["file system supported by GDS"] != "gpfs supported" || measured["RDMA ports Active"] != "mlx5_0/1, mlx5_1/1" || measured["GPU present"] != "4 GPU(s)" {
			t.Errorf("%s measured %v", h, measured)
		}
		if f := gdsStatus(t, r, "gpfs_gds_settings", h); f.Status != event.OK || len(f.Checks) != 5 ||
			f.Checks[4].Measured != "verbsPorts mlx5_0/1 mlx5_1/1; cuFile mlx5_0/1 mlx5_1/1" {
			t.Errorf("%s GPFS GDS settings: %s %s %+v", h, f.Status, f.Message, f.Checks)
		}
		if f := gdsStatus(t, r, "gds_mount_read", h); f.Status != event.OK ||
			f.Checks[0].Measured != "gpu_direct: nvidia-fs counted 64 of the 64 MiB read (64 reads into GPU memory)" {
			t.Errorf("%s mount read: %s %s %+v", h, f.Status, f.Message, f.Checks)
		}
		if f := gdsStatus(t, r, "gpu_nic_acs", h); f.Status != event.OK || f.Checks[0].Measured != "no redirect on the GPU-NIC paths" {
			t.Errorf("%s ACS: %s %s %+v", h, f.Status, f.Message, f.Checks)
		}
		if f := gdsStatus(t, r, "gds_mount_read_proven", h); f.Status != event.OK {
			t.Errorf("%s proven: %s %s", h, f.Status, f.Message)
		}
		ev := gdsStatus(t, r, "gds", h).Evidence["gdscheck -p"]
		if !strings.Contains(ev, " GDS release version: 1.16.0.49\n") || !strings.Contains(ev, " IBM Spectrum Scale : dmabuf, compat\n") {
			t.Errorf("%s evidence %q", h, ev)
		}
	}
}

// Each fault scenario breaks gds02 only; gds01 stays ready.
func TestGDSFaultsLab(t *testing.T) {
	for _, c := range []struct {
		scenario, step string
		status         event.Status
		want           string
	}{
		{"gds-iommu.hcl", "gds_ready", event.Failed, "gds02: IOMMU is enabled and translating"},
		// Issue 19.4: gdscheck says "dmabuf, compat" and verification
		// succeeds, but without rdma_dev_addr_list cuFile serves GPFS in
		// compatibility mode; the old checks passed this node.
		{"gds-compat.hcl", "gds_ready", event.Failed, "gds02: cuFile will serve gpfs in compat mode: cufile.json has no rdma_dev_addr_list for gpfs"},
		{"gds-no-nvidia-fs.hcl", "gds_ready", event.Failed, "gds02: the nvidia_fs kernel module is not loaded"},
		{"gds-unsupported-fs.hcl", "gds_ready", event.Failed, "gds02: gdscheck does not report gpfs as supported"},
		{"gds-no-gpu.hcl", "gds_ready", event.Failed, "gds02: gdscheck reports no GPU"},
		{"gds-numa-sys.hcl", "gpu_near_nic", event.Warned, "gds02: GPU0, GPU1 reach no RDMA NIC under their PCIe switch"},
		{"gds-not-installed.hcl", "gds_ready", event.Failed, "gds02: /usr/local/cuda/gds/tools/gdscheck not found: GPUDirect Storage is not installed"},
		// Issue 19.5: gdscheck, cufile.json and the topology are all fine;
		// the old checks passed this node, but GPFS itself has GDS off.
		{"gds-gpfs-settings.hcl", "gpfs_gds_settings", event.Failed, "gds02: GPFS verbsGPUDirectStorage is 0: GPFS serves no GDS read"},
		{"gds-verbsports.hcl", "gpfs_gds_settings", event.Failed, "gds02: verbsPorts (mlx5_0/1) does not list mlx5_1/1, which cuFile uses for rdma_dev_addr_list"},
		// Issue 19.7: judged against every NIC, each GPU has a PIX one; cuFile
		// only uses mlx5_0, which GPU2 and GPU3 reach across NUMA nodes.
		// Issue 19.5, per mount: gdsio reads "GPUD" either way; nvidia-fs's
		// counters show the bytes did not go to GPU memory directly.
		{"gds-gpfs-settings.hcl", "gds_mount_read", event.Failed, "gds02: gdsio read of " + gdsTestFile + " did not go GPU-direct: nvidia-fs counted 0 of the 64 MiB read: compatibility mode, through host memory"},
		{"gds-compat.hcl", "gds_mount_read", event.Failed, "gds02: gdsio read of " + gdsTestFile + " did not go GPU-direct: nvidia-fs counted 0 of the 64 MiB"},
		{"gds-verbsports.hcl", "gds_mount_read", event.Failed, "gds02: gdsio read of " + gdsTestFile + " failed: gdsio failed on gds02 (status 1): Error: IO failed"},
		{"gds-io-stats-off.hcl", "gds_mount_read_proven", event.Warned, "gds02: no evidence the read of " + gdsTestFile + " went GPU-direct: nvidia-fs IO stats are disabled"},
		// Issue 19.6: the matrix says PIX, so the topology warning stays
		// quiet; ACS on sw1 sends GPU2-mlx5_1 traffic through the CPU.
		{"gds-acs.hcl", "gpu_nic_acs", event.Failed, "gds02: GPU2-mlx5_1: ACS redirects peer-to-peer at 0000:35:00.0, 0000:35:01.0;"},
		{"gds-cufile-one-nic.hcl", "gpu_near_nic", event.Warned, "gds02: GPU2, GPU3 reach no RDMA NIC under their PCIe switch (GPU0-mlx5_0 PIX, GPU1-mlx5_0 PXB, GPU2-mlx5_0 SYS, GPU3-mlx5_0 SYS; judged against the NICs of cuFile's rdma_dev_addr_list)"},
	} {
		t.Run(c.scenario+"/"+c.step, func(t *testing.T) {
			t.Parallel()
			r := gdsLab(t, c.scenario, gdsRunbook, "gds_test_file="+gdsTestFile)
			f := gdsStatus(t, r, c.step, "gds02")
			if f.Status != c.status || !strings.Contains(f.Message, c.want) {
				t.Errorf("gds02 %s: %s %q, want %s %q\n%s", c.step, f.Status, f.Message, c.status, c.want, r.Describe())
			}
			if c.scenario == "gds-not-installed.hcl" {
				return
			}
			if f := gdsStatus(t, r, "gds_ready", "gds01"); f.Status != event.OK {
				t.Errorf("gds01: %s %s", f.Status, f.Message)
			}
			if c.status == event.Warned {
				if f := gdsStatus(t, r, "gds_ready", "gds02"); f.Status != event.OK || r.Outcome.Failed {
					t.Errorf("a far GPU must only warn: %s %s", f.Status, f.Message)
				}
			}
			if c.scenario == "gds-no-gpu.hcl" {
				if f := gdsStatus(t, r, "gpu_near_nic", "gds02"); f.Status != event.Skipped {
					t.Errorf("topology without GPU: %s", f.Status)
				}
			}
		})
	}
}

func TestCephGuardLab(t *testing.T) {
	t.Run("tcp", func(t *testing.T) {
		t.Parallel()
		r := gdsLab(t, "ceph-tcp.hcl", cephRunbook)
		if r.Outcome.Failed {
			t.Fatalf("TCP cluster failed:\n%s", r.Describe())
		}
		if f := gdsStatus(t, r, "no_ceph_rdma", "ceph01"); !strings.HasPrefix(f.Checks[0].Measured, "ceph01: async+posix/async+posix/async+posix, ceph02: async+posix/") {
			t.Errorf("measured %q", f.Checks[0].Measured)
		}
	})
	t.Run("rdma", func(t *testing.T) {
		t.Parallel()
		r := gdsLab(t, "ceph-rdma.hcl", cephRunbook)
		if !r.Outcome.Failed {
			t.Fatalf("RDMA messenger passed:\n%s", r.Describe())
		}
		want := map[string]string{"ceph01": "", "ceph02": "[global] ms_type = async+rdma", "ceph03": "[osd] ms_cluster_type = async+rdma"}
		for h, finding := range want {
			f := gdsStatus(t, r, "messenger", h)
			switch {
			case finding == "" && f.Status != event.OK:
				t.Errorf("%s: %s %s", h, f.Status, f.Message)
			case finding != "" && (f.Status != event.Failed || !strings.Contains(f.Message, finding) || !strings.Contains(f.Message, "OSD path and BlueStore")):
				t.Errorf("%s: %s %q, want failed with %q", h, f.Status, f.Message, finding)
			}
		}
		if f := gdsStatus(t, r, "no_ceph_rdma", "ceph01"); f.Status != event.Failed || !strings.Contains(f.Message, "ceph02 [global] ms_type = async+rdma; ceph03 [osd] ms_cluster_type = async+rdma") {
			t.Errorf("summary: %s %q", f.Status, f.Message)
		}
	})
	t.Run("rdma-waived", func(t *testing.T) {
		t.Parallel()
		r := gdsLab(t, "ceph-rdma.hcl", cephRunbook, "waive=true", "justification=isolated benchmark cluster, STOR-123")
		if r.Outcome.Failed {
			t.Fatalf("waived run failed:\n%s", r.Describe())
		}
		f := gdsStatus(t, r, "messenger", "ceph02")
		if f.Status != event.OK || !strings.HasPrefix(f.Message, "WARNING: Ceph RDMA messenger waived: isolated benchmark cluster, STOR-123") ||
			len(f.Checks) != 1 || f.Checks[0].Verdict != "waived" || f.Result["waived"] != true {
			t.Errorf("ceph02: %s %q %+v", f.Status, f.Message, f.Checks)
		}
	})
	t.Run("planned", func(t *testing.T) {
		t.Parallel()
		r := gdsLab(t, "ceph-tcp.hcl", cephRunbook, `planned_settings={"ms type"="async+rdma"}`)
		if f := gdsStatus(t, r, "messenger", "ceph01"); f.Status != event.Failed || !strings.Contains(f.Message, "planned ms_type = async+rdma") {
			t.Errorf("planned: %s %q", f.Status, f.Message)
		}
	})
}
