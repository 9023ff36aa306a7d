package runbooks

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/provadev/prova/lab"
	"github.com/provadev/prova/lab/labtest"
)

// The daily workflow with the inventory taken from the cluster: the lab's
// gpfs.hcl lists no node. Configure and verify on 3 nodes, expand by 2,
// accept only the new ones against the baseline, then verify all 5:
// nothing was edited between the runs.
func TestGPFSInventoryExpansionDiscovered(t *testing.T) {
	if testing.Short() {
		t.Skip("lab test")
	}
	l := labtest.Start(t, 3, "")
	inv := filepath.Join(l.Dir(), lab.GPFSInventoryName)
	runs := filepath.Join(t.TempDir(), "runs")
	common := []string{"-i", inv, "--record-dir", runs, "--var", `verbs_ports=["mlx5_0/1","mlx5_1/1"]`, "--var", "settle_delay=1s"}
	rdma := append([]string{"apply", "gpfs-verbs-rdma.hcl", "--var", "restart_poll=1s"}, common...)
	verify := append([]string{"apply", "gpfs-verbs-verify.hcl"}, common...)

	if rc, out := prova(t, rdma...); rc != 0 {
		t.Fatalf("configure: rc %d\n%s", rc, out)
	}
	rc, out := prova(t, verify...)
	base := latestRun(t, runs)
	if rc != 0 || !slices.Equal(base.Meta.Hosts, []string{"gpfs01", "gpfs02", "gpfs03"}) {
		t.Fatalf("verify on 3 nodes: rc %d, hosts %v\n%s", rc, base.Meta.Hosts, out)
	}
	if !strings.Contains(out, "GPFS cluster lab.prova from admin node gpfs01: 3 nodes") {
		t.Errorf("the run does not say where its hosts came from:\n%s", out)
	}

	if err := l.Expand(2); err != nil {
		t.Fatal(err)
	}
	rc, out = prova(t, append(rdma, "--baseline", base.Dir, "--only-new")...)
	rec := latestRun(t, runs)
	if rc != 0 || !slices.Equal(rec.Meta.Hosts, []string{"gpfs04", "gpfs05"}) || len(failedHosts(rec)) != 0 {
		t.Fatalf("--only-new after the expansion: rc %d, hosts %v, failed %v\n%s", rc, rec.Meta.Hosts, failedHosts(rec), out)
	}
	if !strings.Contains(out, "new hosts: gpfs04, gpfs05") {
		t.Errorf("the baseline comparison does not name the new hosts:\n%s", out)
	}
	rc, out = prova(t, verify...)
	rec = latestRun(t, runs)
	if rc != 0 || len(rec.Meta.Hosts) != 5 {
		t.Fatalf("verify on 5 nodes: rc %d, hosts %v, failed %v\n%s", rc, rec.Meta.Hosts, failedHosts(rec), out)
	}
}
