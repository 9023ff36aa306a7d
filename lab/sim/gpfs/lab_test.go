package gpfs_test

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"golang.org/x/crypto/ssh"

	"github.com/provadev/prova/lab"
	"github.com/provadev/prova/lab/labtest"
	"github.com/provadev/prova/lab/sim/gpfs"
)

// The simulator through the real lab: SSH, the node's mount namespace, the
// audit log.
func TestLabOverSSH(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a lab")
	}
	l := labtest.Start(t, 4, filepath.Join("..", "..", "..", "examples", "lab", "gpfs-firewall.hcl"))
	if err := gpfs.Seed(l.Dir(), gpfs.Settings{Settle: time.Hour, Config: map[string]string{"verbsRdma": "enable"}}); err != nil {
		t.Fatal(err)
	}
	c1, c4 := labtest.Client(t, l, "gpfs01"), labtest.Client(t, l, "gpfs04")
	run := func(c *ssh.Client, cmd string) labtest.Result {
		t.Helper()
		r := labtest.MustRun(t, c, cmd)
		if r.Status != 0 {
			t.Fatalf("%s: status %d\n%s%s", cmd, r.Status, r.Stdout, r.Stderr)
		}
		return r
	}
	// Seeded: verbsRdma enabled from the start, but no verbsPorts.
	if r := run(c1, "mmdiag --config | grep -i verbs"); !strings.Contains(r.Stdout, "! verbsRdma enable") {
		t.Errorf("seeded config:\n%s", r.Stdout)
	}
	run(c1, `mmchconfig verbsRdma=enable,verbsPorts="mlx5_0/1"`)
	run(c1, "mmshutdown -a")
	run(c4, "mmstartup -a")
	if r := run(c1, "mmgetstate -a"); strings.Count(r.Stdout, "arbitrating") != 4 {
		t.Errorf("after mmstartup:\n%s", r.Stdout)
	}
	if err := gpfs.AdvanceClock(l.Dir(), time.Hour); err != nil {
		t.Fatal(err)
	}
	if r := run(c4, "mmgetstate -aY"); strings.Count(r.Stdout, ":active:") != 4 {
		t.Errorf("after the settle time:\n%s", r.Stdout)
	}
	for _, n := range []string{"gpfs01", "gpfs02", "gpfs03", "gpfs04"} {
		r := run(labtest.Client(t, l, n), "mmfsadm test verbs conn")
		var peers []string
		for _, line := range strings.Split(strings.TrimSpace(r.Stdout), "\n")[2:] {
			peers = append(peers, strings.Fields(line)[1])
		}
		want := []string{"gpfs01", "gpfs02", "gpfs03"}
		want = slices.DeleteFunc(want, func(p string) bool { return p == n })
		if n == "gpfs04" {
			want = nil
		}
		if !slices.Equal(peers, want) {
			t.Errorf("%s: RDMA peers %v, want %v", n, peers, want)
		}
	}
	log := run(c4, "cat /var/adm/ras/mmfs.log.latest").Stdout
	if !strings.Contains(log, "[E] VERBS RDMA rdma_connect to ") || !strings.Contains(log, "VERBS RDMA started.") {
		t.Errorf("gpfs04 mmfs.log:\n%s", log)
	}
	if r := labtest.MustRun(t, c1, "mmchconfig bogus=1"); r.Status != 1 {
		t.Errorf("unknown attribute: status %d", r.Status)
	}
	audit, err := lab.ReadAudit(l.Dir(), "gpfs01")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"mmdiag --config | grep -i verbs": lab.ChangedNo, `mmchconfig verbsRdma=enable,verbsPorts="mlx5_0/1"`: lab.ChangedYes,
		"mmshutdown -a": lab.ChangedYes, "mmgetstate -a": lab.ChangedNo, "mmfsadm test verbs conn": lab.ChangedNo, "mmchconfig bogus=1": lab.ChangedNo}
	for _, e := range audit {
		if w, ok := want[e.Command]; ok {
			if e.Changed != w {
				t.Errorf("audit %q changed=%s, want %s (writes %v)", e.Command, e.Changed, w, e.StateWrites)
			}
			delete(want, e.Command)
		}
	}
	if len(want) > 0 {
		t.Errorf("not in the audit log: %v", want)
	}
}
