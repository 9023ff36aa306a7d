package lab_test

import (
	"context"
	"errors"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/provadev/prova/lab"
	"github.com/provadev/prova/lab/labtest"
)

func needRoot(t *testing.T) {
	t.Helper()
	labtest.NeedRoot(t)
}

func writeScenario(t *testing.T, src string) string {
	p := filepath.Join(t.TempDir(), "s.hcl")
	if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestHealthyAndFallbackOutputs(t *testing.T) {
	needRoot(t)
	l := labtest.Start(t, 4, "../examples/lab/fallback.hcl")
	good, bad := labtest.Client(t, l, "gpfs01"), labtest.Client(t, l, "gpfs03")
	r := labtest.MustRun(t, good, "ibstat | grep -E 'CA |State|Rate'")
	if r.Status != 0 || strings.Count(r.Stdout, "State: Active") != 2 || !strings.Contains(r.Stdout, "CA 'mlx5_1'") {
		t.Errorf("healthy ibstat: %+v", r)
	}
	r = labtest.MustRun(t, bad, "ibstat mlx5_1 | grep State; ibdev2netdev")
	if !strings.Contains(r.Stdout, "\t\tState: Down\n") || !strings.Contains(r.Stdout, "mlx5_1 port 1 ==> ib1 (Down)") {
		t.Errorf("fallback node: %q", r.Stdout)
	}
	r = labtest.MustRun(t, labtest.Client(t, l, "gpfs04"), "rdma link; ibv_devinfo -d mlx5_1")
	if strings.Contains(r.Stdout, "mlx5_1") || r.Status != 255 || r.Stderr != "IB device 'mlx5_1' wasn't found\n" {
		t.Errorf("absent HCA: %+v", r)
	}
}

func TestOFEDMissingAndNoHCA(t *testing.T) {
	needRoot(t)
	sc := writeScenario(t, `node "gpfs02" {
  ofed = null
  hca "mlx5_0" { absent = true }
  hca "mlx5_1" { absent = true }
}`)
	l := labtest.Start(t, 2, sc)
	c := labtest.Client(t, l, "gpfs02")
	for cmd, want := range map[string]struct {
		status int
		stderr string
	}{
		"ibstat":       {0, ""},
		"ibstatus":     {255, "Fatal error:  No devices\n"},
		"ibv_devinfo":  {255, "Failed to get IB devices list: Function not implemented\n"},
		"rdma -j link": {1, "Failed to open NETLINK_RDMA socket\n"},
		"ofed_info -s": {127, "sh: 1: ofed_info: not found\n"},
		"ibdev2netdev": {127, "sh: 1: ibdev2netdev: not found\n"},
	} {
		r := labtest.MustRun(t, c, cmd)
		if r.Status != want.status || r.Stderr != want.stderr || r.Stdout != "" {
			t.Errorf("%s: %+v, want status %d stderr %q", cmd, r, want.status, want.stderr)
		}
	}
	if r := labtest.MustRun(t, labtest.Client(t, l, "gpfs01"), "ofed_info -s"); r.Stdout != "MLNX_OFED_LINUX-23.10-1.1.9.0:\n" {
		t.Errorf("gpfs01 ofed_info: %+v", r)
	}
}

// Each node sees its own files at the real paths; this machine's files do
// not change.
func TestNodeFilesAtRealPaths(t *testing.T) {
	needRoot(t)
	_, varAdmErr := os.Stat("/var/adm")
	hostMem, _ := os.ReadFile("/proc/meminfo")
	sc := writeScenario(t, `node "gpfs02" {
  memory_gib  = 512
  filesystems = ["gpfs", "ceph"]
  nvme_drives = 2
}`)
	l := labtest.Start(t, 2, sc)
	c1, c2 := labtest.Client(t, l, "gpfs01"), labtest.Client(t, l, "gpfs02")
	m1 := labtest.MustRun(t, c1, "grep MemTotal /proc/meminfo; hostname").Stdout
	m2 := labtest.MustRun(t, c2, "grep MemTotal /proc/meminfo; hostname").Stdout
	if !strings.Contains(m1, "268435456 kB\ngpfs01") || !strings.Contains(m2, "536870912 kB\ngpfs02") {
		t.Errorf("meminfo/hostname: %q %q", m1, m2)
	}
	r := labtest.MustRun(t, c2, "ls /var/adm/ras /etc/ceph /dev/nvme*; grep ms_type /etc/ceph/ceph.conf; echo started >> /var/adm/ras/mmfs.log.latest; echo hi > /root/note; ls /dev/null")
	for _, want := range []string{"mmfs.log.latest", "ceph.conf", "/dev/nvme0n1", "/dev/nvme1", "ms_type = async+posix", "/dev/null"} {
		if !strings.Contains(r.Stdout, want) {
			t.Errorf("gpfs02 missing %q in %q (stderr %q)", want, r.Stdout, r.Stderr)
		}
	}
	if r := labtest.MustRun(t, c1, "ls /etc/ceph"); r.Status == 0 {
		t.Errorf("gpfs01 has /etc/ceph: %+v", r)
	}
	log, _ := os.ReadFile(filepath.Join(l.Dir(), "nodes/gpfs02/root/var/adm/ras/mmfs.log.latest"))
	note, _ := os.ReadFile(filepath.Join(l.Dir(), "nodes/gpfs02/root/root/note"))
	if string(log) != "started\n" || string(note) != "hi\n" {
		t.Errorf("node writes did not land in the node: %q %q", log, note)
	}
	if _, err := os.Stat("/var/adm"); (err == nil) != (varAdmErr == nil) {
		t.Error("/var/adm changed on the real file system")
	}
	if _, err := os.Stat("/etc/ceph/ceph.conf"); err == nil && !os.IsNotExist(varAdmErr) {
		t.Log("this machine has its own /etc/ceph")
	}
	if _, err := os.Stat("/root/note"); err == nil {
		t.Error("/root/note written to the real file system")
	}
	if now, _ := os.ReadFile("/proc/meminfo"); strings.SplitN(string(now), "\n", 2)[0] != strings.SplitN(string(hostMem), "\n", 2)[0] {
		t.Error("real /proc/meminfo changed")
	}
}

func TestAuditLog(t *testing.T) {
	needRoot(t)
	l := labtest.Start(t, 1, "")
	c := labtest.Client(t, l, "gpfs01")
	labtest.MustRun(t, c, "ibstat | grep -c State 2>/dev/null")
	labtest.MustRun(t, c, "touch /root/x")
	labtest.MustRun(t, c, "ibstatus mlx5_9")
	entries, err := lab.ReadAudit(l.Dir(), "gpfs01")
	if err != nil || len(entries) != 3 {
		t.Fatalf("audit: %v %+v", err, entries)
	}
	if e := entries[0]; e.Changed != lab.ChangedNo || e.Exit != 0 || strings.Join(e.SimTools, ",") != "ibstat" || e.Command != "ibstat | grep -c State 2>/dev/null" {
		t.Errorf("entry 0: %+v", e)
	}
	if e := entries[1]; e.Changed != lab.ChangedUnknown || len(e.SimTools) != 0 {
		t.Errorf("entry 1: %+v", e)
	}
	if e := entries[2]; e.Exit != 255 || e.Changed != lab.ChangedNo {
		t.Errorf("entry 2: %+v", e)
	}
}

func TestFaults(t *testing.T) {
	needRoot(t)
	sc := writeScenario(t, `
node "gpfs02" {
  faults { ssh_down = true }
}
node "gpfs03" {
  faults { handshake_delay = "300ms" }
}
node "gpfs04" {
  faults {
    drop_on    = "mpstat"
    drop_after = "100ms"
  }
}
node "gpfs05" {
  faults { hang_on = "mmfsadm test verbs conn" }
}`)
	l := labtest.Start(t, 5, sc)
	if _, err := labtest.Dial(t, l, "gpfs02"); err == nil || !errors.Is(err, errConnRefused(err)) {
		t.Errorf("ssh_down node: %v", err)
	}
	start := time.Now()
	c3 := labtest.Client(t, l, "gpfs03")
	if d := time.Since(start); d < 300*time.Millisecond {
		t.Errorf("handshake took %s, delay is 300ms", d)
	}
	labtest.MustRun(t, c3, "true")

	// A dropped connection is an error for the client; other nodes go on.
	c4, c1 := labtest.Client(t, l, "gpfs04"), labtest.Client(t, l, "gpfs01")
	if r := labtest.MustRun(t, c4, "ibstat -l"); r.Stdout != "mlx5_0\nmlx5_1\n" {
		t.Errorf("gpfs04 before the fault: %+v", r)
	}
	if r, err := labtest.Run(c4, "mpstat 1 5"); err == nil {
		t.Errorf("dropped command returned status %d, want an error", r.Status)
	}
	if r := labtest.MustRun(t, c1, "hostname"); r.Stdout != "gpfs01\n" {
		t.Errorf("gpfs01 after gpfs04 dropped: %+v", r)
	}
	waitAudit(t, l, "gpfs04", func(e lab.AuditEntry) bool { return e.Fault == "dropped" && e.Exit == -1 })

	// A hanging command returns only when the client gives up.
	c5 := labtest.Client(t, l, "gpfs05")
	s, err := c5.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- s.Run("/usr/lpp/mmfs/bin/mmfsadm test verbs conn") }()
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	select {
	case err := <-done:
		t.Fatalf("hanging command returned: %v", err)
	case <-ctx.Done():
	}
	s.Close()
	<-done
	if r := labtest.MustRun(t, c5, "echo alive"); r.Stdout != "alive\n" {
		t.Errorf("gpfs05 after hang: %+v", r)
	}
	waitAudit(t, l, "gpfs05", func(e lab.AuditEntry) bool { return e.Fault == "hung" })
}

func errConnRefused(err error) error {
	var op *net.OpError
	if errors.As(err, &op) && strings.Contains(op.Err.Error(), "connection refused") {
		return err
	}
	return errors.New("not refused")
}

func waitAudit(t *testing.T, l *lab.Lab, node string, ok func(lab.AuditEntry) bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		entries, _ := lab.ReadAudit(l.Dir(), node)
		for _, e := range entries {
			if ok(e) {
				return
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	entries, _ := lab.ReadAudit(l.Dir(), node)
	t.Errorf("%s: no matching audit entry in %+v", node, entries)
}

func TestExpand(t *testing.T) {
	needRoot(t)
	l := labtest.Start(t, 2, "")
	port1 := l.Nodes()[0].Port
	if err := l.Expand(2); err != nil {
		t.Fatal(err)
	}
	nodes := l.Nodes()
	if len(nodes) != 4 || nodes[3].Name != "gpfs04" || nodes[0].Port != port1 {
		t.Fatalf("nodes after expand: %+v", nodes)
	}
	inv, _ := os.ReadFile(l.InventoryPath())
	if !strings.Contains(string(inv), `host "gpfs04" {`) || !strings.Contains(string(inv), "port    = "+strconv.Itoa(nodes[3].Port)) {
		t.Errorf("inventory not rewritten:\n%s", inv)
	}
	if r := labtest.MustRun(t, labtest.Client(t, l, "gpfs04"), "hostname"); r.Stdout != "gpfs04\n" {
		t.Errorf("new node: %+v", r)
	}
	if err := l.Expand(0); err == nil {
		t.Error("expand by 0 accepted")
	}
}

func TestWrongKeyRejected(t *testing.T) {
	needRoot(t)
	l := labtest.Start(t, 1, "")
	cfg := labtest.Config(t, l)
	cfg.Auth = nil
	n := l.Nodes()[0]
	if _, err := sshDial(n, cfg); err == nil {
		t.Error("connection without a key accepted")
	}
}
