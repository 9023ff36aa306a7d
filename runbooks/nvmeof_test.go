package runbooks_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/provadev/prova/engine/apply"
	"github.com/provadev/prova/engine/module"
	"github.com/provadev/prova/engine/program"
	"github.com/provadev/prova/inventory"
	"github.com/provadev/prova/lab"
	"github.com/provadev/prova/lab/labtest"
	"github.com/provadev/prova/modules/assert"
	"github.com/provadev/prova/modules/bench"
	"github.com/provadev/prova/modules/compare"
	"github.com/provadev/prova/modules/nvmeconnect"
	"github.com/provadev/prova/modules/nvmediscover"
	"github.com/provadev/prova/modules/rdmaports"
	"github.com/provadev/prova/modules/shell"
	"github.com/provadev/prova/runbooks/runbooktest"
)

const nvmeofRunbook = "nvmeof-rdma-vs-tcp.hcl"

// nvmeofRegistry holds the modules the NVMe-oF runbook uses.
func nvmeofRegistry() *module.Registry {
	r := module.NewRegistry()
	for _, m := range []module.Module{shell.New(), assert.New(), rdmaports.New(), nvmediscover.New(),
		nvmeconnect.NewConnect(), nvmeconnect.NewDisconnect(), bench.NewBlock(), bench.NewCPUCapture(), compare.New()} {
		r.Register(m)
	}
	return r
}

var nvmeofVars = []string{"target_address=10.10.0.100", "nqn=nqn.2024-01.dev.prova:lab-target1",
	"runtime=1s", "repeat=1"}

func nvmeofOptions(mode apply.Mode, vars ...string) runbooktest.Options {
	return runbooktest.Options{Mode: mode, Registry: nvmeofRegistry(), Vars: append(append([]string(nil), nvmeofVars...), vars...)}
}

func TestNVMeoFRunbookValidates(t *testing.T) {
	inv, diags := inventory.FromList("client1,client2")
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	prog, scope := runbooktest.Load(t, nvmeofRunbook, inv, nvmeofOptions(apply.ModePlan))
	if d := program.Validate(prog, scope); d.HasErrors() {
		t.Fatal(d.Error())
	}
}

// nvmeofScenario returns the lab scenario; a missing one fails the test
// (the scenarios ship with the repository). Short mode skips lab tests.
func nvmeofScenario(t *testing.T, name string) string {
	t.Helper()
	p, err := filepath.Abs(filepath.Join("..", "examples", "lab", name))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(p); err != nil {
		t.Fatalf("lab scenario %s is missing: %v", name, err)
	}
	if testing.Short() {
		t.Skip("lab test")
	}
	return p
}

func str(v any) string { s, _ := v.(string); return s }

func number(v any) float64 { f, _ := v.(float64); return f }

// connected reports the NVMe-oF controllers node still has, per the lab's
// nvme-cli.
func nvmeAudit(t *testing.T, l *lab.Lab, node, word string) []string {
	t.Helper()
	es, err := lab.ReadAudit(l.Dir(), node)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range es {
		if strings.Contains(e.Command, word) {
			out = append(out, e.Command)
		}
	}
	return out
}

func TestNVMeoFLabHealthy(t *testing.T) {
	l := labtest.Start(t, 0, nvmeofScenario(t, "nvmeof-healthy.hcl"))
	r := runbooktest.Run(t, l, nvmeofRunbook, nvmeofOptions(apply.ModeApply, "initiator=host01", "repeat=2"))
	if r.Outcome.Failed {
		t.Fatalf("healthy bench failed:\n%s", r.Describe())
	}
	if n := number(r.Output("lat_rdma", "host01", "runs")); n != 2 {
		t.Errorf("lat_rdma runs = %v, want the median of 2", n)
	}
	if tbl := str(r.Output("rdma_vs_tcp", "host01", "table")); !strings.Contains(tbl, "(profile prova-default/2)") {
		t.Errorf("Ethernet run not judged by prova-default/2:\n%s", tbl)
	}
	if s := str(r.Output("rdma_vs_tcp", "host01", "cpu_run")); s != "sequential" {
		t.Errorf("cpu_run = %q", s)
	}
	ratio := number(r.Output("rdma_vs_tcp", "host01", "latency_ratio"))
	if ratio < 0.15 || ratio > 0.45 {
		t.Errorf("latency ratio = %v, want about 0.28", ratio)
	}
	if v := str(r.Output("rdma_vs_tcp", "host01", "verdict")); v != "pass" {
		t.Errorf("verdict = %q\n%s", v, r.Output("rdma_vs_tcp", "host01", "table"))
	}
	if drop := number(r.Output("rdma_vs_tcp", "host01", "soft_drop_pct")); drop < 50 {
		t.Errorf("soft drop = %v", drop)
	}
	if got := str(r.Output("connect_rdma", "host01", "transport")); got != "rdma" {
		t.Errorf("rdma path transport = %q", got)
	}
	t.Logf("\n%s", r.Output("rdma_vs_tcp", "host01", "table"))
	// Cleanup ran and nothing is left connected.
	if n := number(r.Output("cleanup", "host01", "controllers")); n != 0 {
		t.Errorf("cleanup disconnected %v controllers: disconnect_rdma left some", n)
	}
	// Plan runs no command that changes the host and no benchmark.
	before := len(nvmeAudit(t, l, "host01", ""))
	pr := runbooktest.Run(t, l, nvmeofRunbook, nvmeofOptions(apply.ModePlan, "initiator=host01"))
	if len(pr.Outcome.Diagnostics) > 0 {
		t.Fatalf("plan: %s", pr.Outcome.Diagnostics.Error())
	}
	for _, c := range nvmeAudit(t, l, "host01", "")[before:] {
		for _, w := range []string{"nvme connect", "nvme disconnect", "elbencho", "mpstat", "mktemp"} {
			if strings.Contains(c, w) {
				t.Errorf("plan ran %q", c)
			}
		}
	}
	if got := nvmeAudit(t, l, "host02", "nvme"); len(got) != 0 {
		t.Errorf("host02 is not the initiator but ran %v", got)
	}
}

// Issue 19.1: on a namespace backed by one SSD both transports reach the
// same IOPS ceiling at 16 x 32, so the latency of that run is the queue's
// (512 / IOPS) over both. prova-default/1, which judged the latency of that
// run, fails a working RDMA path; prova-default/2 judges the queue-depth-1
// run, passes it, and warns that the IOPS line is device-bound.
func TestNVMeoFLabOneSSD(t *testing.T) {
	l := labtest.Start(t, 0, nvmeofScenario(t, "nvmeof-one-ssd.hcl"))
	r := runbooktest.Run(t, l, nvmeofRunbook, nvmeofOptions(apply.ModeApply, "initiator=host01"))
	tbl := str(r.Output("rdma_vs_tcp", "host01", "table"))
	if v := str(r.Output("rdma_vs_tcp", "host01", "latency")); v != "pass" || r.Outcome.Failed {
		t.Errorf("latency at queue depth 1 = %q, failed %t\n%s", v, r.Outcome.Failed, tbl)
	}
	if v := str(r.Output("rdma_vs_tcp", "host01", "iops")); v != "warn" || !strings.Contains(tbl, "same IOPS ceiling") {
		t.Errorf("iops line = %q, want the same-ceiling warning\n%s", v, tbl)
	}
	old := runbooktest.Run(t, l, nvmeofRunbook, nvmeofOptions(apply.ModeApply, "initiator=host01", "profile=prova-default/1"))
	ratio := number(old.Output("rdma_vs_tcp", "host01", "latency_ratio"))
	if v := str(old.Output("rdma_vs_tcp", "host01", "latency")); v != "fail" || ratio < 0.8 {
		t.Errorf("prova-default/1 on a device-bound run: latency %q, ratio %.2f; want the old method's failure (ratio near 1)", v, ratio)
	}
	t.Logf("prova-default/2:\n%s\nprova-default/1 (latency ratio %.2f):\n%s", tbl, ratio, old.Output("rdma_vs_tcp", "host01", "table"))
}

func TestNVMeoFLabNoRDMATarget(t *testing.T) {
	l := labtest.Start(t, 0, nvmeofScenario(t, "nvmeof-no-rdma-target.hcl"))
	r := runbooktest.Run(t, l, nvmeofRunbook, nvmeofOptions(apply.ModeApply, "initiator=host01"))
	if !r.Outcome.Failed {
		t.Fatalf("a target without RDMA passed:\n%s", r.Describe())
	}
	conn := r.Finished("connect_rdma")
	if len(conn) != 1 || conn[0].Status != "failed" || !strings.Contains(conn[0].Message, "connect nqn.2024-01.dev.prova:lab-target1 over rdma") {
		t.Errorf("connect_rdma: %+v", conn)
	}
	t.Logf("connect_rdma: %s", conn[0].Message)
	for _, st := range []string{"lat_rdma", "iops_rdma", "seq_rdma"} {
		if b := r.Finished(st); len(b) != 1 || b[0].Status != "skipped" {
			t.Errorf("%s: %+v", st, b)
		}
	}
	if v := str(r.Output("rdma_vs_tcp", "host01", "latency")); v != "fail" {
		t.Errorf("latency verdict = %q", v)
	}
	// TCP was measured, and the cleanup ran after the failures.
	if number(r.Output("lat_tcp", "host01", "lat_p50_us")) <= 0 {
		t.Errorf("lat_tcp did not measure:\n%s", r.Describe())
	}
	if c := r.Finished("cleanup"); len(c) != 1 || c[0].Status == "failed" {
		t.Errorf("cleanup: %+v\n%s", c, r.Describe())
	}
}

func TestNVMeoFLabLossless(t *testing.T) {
	l := labtest.Start(t, 0, nvmeofScenario(t, "nvmeof-lossless.hcl"))
	r := runbooktest.Run(t, l, nvmeofRunbook, nvmeofOptions(apply.ModeApply, "initiator=host01"))
	if v := str(r.Output("rdma_vs_tcp", "host01", "latency")); v != "fail" {
		t.Errorf("latency verdict = %q (ratio %v)\n%s", v, r.Output("rdma_vs_tcp", "host01", "latency_ratio"), r.Describe())
	}
	if !r.Outcome.Failed {
		t.Error("the run did not fail")
	}
	if c := r.Finished("cleanup"); len(c) != 1 {
		t.Errorf("cleanup did not run: %+v", c)
	}
}

func TestNVMeoFLabSlowPort(t *testing.T) {
	l := labtest.Start(t, 0, nvmeofScenario(t, "nvmeof-slow-port.hcl"))
	r := runbooktest.Run(t, l, nvmeofRunbook, nvmeofOptions(apply.ModeApply, "initiator=host03", "line_rate_gbps=100"))
	if v := str(r.Output("rdma_vs_tcp", "host03", "bandwidth")); v != "warn" {
		t.Errorf("bandwidth verdict = %q\n%s", v, r.Output("rdma_vs_tcp", "host03", "table"))
	}
	if str(r.Output("rdma_vs_tcp", "host03", "verdict")) != "warn" || r.Outcome.Failed {
		t.Errorf("a slow port only warns: verdict %v, failed %t\n%s", r.Output("rdma_vs_tcp", "host03", "verdict"), r.Outcome.Failed, r.Describe())
	}
}
