package gpfs

// The only file of the package that imports prova's parsers: every
// simulator output must be read by its parser, with the values the
// simulator meant.

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	pg "github.com/provadev/prova/parse/gpfs"
)

func TestParsersReadSimulatorOutput(t *testing.T) {
	l := newFakeLab(t, scenarioSrc(t, "gpfs-ofed-mismatch.hcl"), 4)
	l.must("gpfs01", "mmchconfig pagepool=8G -N gpfs01,gpfs02")
	l.restart("mlx5_0/1 mlx5_1/1")

	cfg, err := pg.ParseMmlsconfig([]byte(l.must("gpfs01", "mmlsconfig").out))
	if err != nil {
		t.Fatal(err)
	}
	if v, _ := cfg.Effective("pagepool", "gpfs02", nil); v != "8G" || cfg.ClusterName != "lab.prova" {
		t.Errorf("mmlsconfig: pagepool %q cluster %q", v, cfg.ClusterName)
	}
	if v, _ := cfg.Effective("verbsPorts", "gpfs03", nil); v != "mlx5_0/1 mlx5_1/1" {
		t.Errorf("mmlsconfig: verbsPorts %q", v)
	}
	if _, err := pg.ParseMmlsconfig([]byte(l.must("gpfs01", "mmlsconfig pagepool").out)); err != nil {
		t.Error(err)
	}
	cy, err := pg.ParseMmlsconfigY([]byte(l.must("gpfs01", "mmlsconfig -Y").out))
	if err != nil {
		t.Fatal(err)
	}
	if v, _ := cy.Effective("pagepool", "gpfs01", nil); v != "8G" {
		t.Errorf("mmlsconfig -Y: pagepool %q", v)
	}
	for _, cmd := range []string{"mmdiag --config", "mmdiag --config -Y"} {
		parse := pg.ParseMmdiagConfig
		if strings.HasSuffix(cmd, "-Y") {
			parse = pg.ParseMmdiagConfigY
		}
		d, err := parse([]byte(l.must("gpfs02", cmd).out))
		if err != nil {
			t.Fatal(err)
		}
		if a, _ := d.Get("pagepool"); a.Value != "8589934592" || !a.Changed {
			t.Errorf("%s: pagepool %+v", cmd, a)
		}
		if a, _ := d.Get("verbsRdma"); a.Value != "enable" {
			t.Errorf("%s: verbsRdma %+v", cmd, a)
		}
	}
	net, err := pg.ParseMmdiagNetwork([]byte(l.must("gpfs01", "mmdiag --network").out))
	if err != nil {
		t.Fatal(err)
	}
	if len(net.TCP) != 3 || len(net.ConnectedTCP("10.10.0.5")) != 1 || len(net.RDMA) != 4 {
		t.Errorf("mmdiag --network: tcp %+v rdma %v", net.TCP, net.RDMA)
	}
	for _, cmd := range []string{"mmgetstate", "mmgetstate -a", "mmgetstate -aL", "mmgetstate -av", "mmgetstate -N gpfs03"} {
		st, err := pg.ParseMmgetstate([]byte(l.must("gpfs01", cmd).out))
		if err != nil {
			t.Fatalf("%s: %v", cmd, err)
		}
		if len(st.Nodes) == 0 || st.Nodes[0].State != "active" {
			t.Errorf("%s: %+v", cmd, st.Nodes)
		}
	}
	sy, err := pg.ParseMmgetstateY([]byte(l.must("gpfs01", "mmgetstate -aY").out))
	if err != nil || len(sy.Nodes) != 4 || !sy.Nodes[0].QuorumNode || sy.Nodes[3].State != "active" {
		t.Errorf("mmgetstate -Y: %+v %v", sy, err)
	}
	cl, err := pg.ParseMmlscluster([]byte(l.must("gpfs03", "mmlscluster").out))
	if err != nil || len(cl.Nodes) != 4 || cl.Nodes[3].IP != "10.10.0.5" || !cl.Nodes[1].Quorum || cl.Nodes[2].Quorum || !cl.CCR {
		t.Errorf("mmlscluster: %+v %v", cl, err)
	}
	vs, err := pg.ParseVerbsStatus([]byte(l.must("gpfs04", "mmfsadm test verbs status").out))
	if err != nil || !vs.Started {
		t.Errorf("verbs status: %+v %v", vs, err)
	}
	vc, err := pg.ParseVerbsConn([]byte(l.must("gpfs01", "mmfsadm test verbs conn").out))
	if err != nil {
		t.Fatal(err)
	}
	if !vc.Connected("10.10.0.3", "gpfs02") || vc.Connected("10.10.0.5", "gpfs04") || len(vc.Conns) != 4 {
		t.Errorf("verbs conn: %+v", vc.Conns)
	}
	lg, err := pg.ParseMmfsLog([]byte(l.log("gpfs04")))
	if err != nil {
		t.Fatal(err)
	}
	peers := pg.VerbsPeers(lg.SinceLastStart())
	if len(lg.Starts) != 1 || lg.Starts[0] != 0 || len(peers) != 3 || peers[0].UpNow() || peers[0].LastError == nil || *peers[0].LastError != 73 {
		t.Errorf("mmfs.log: starts %v peers %+v", lg.Starts, peers)
	}
	lg, err = pg.ParseMmfsLog([]byte(l.log("gpfs02")))
	if err != nil {
		t.Fatal(err)
	}
	if p := pg.VerbsPeers(lg.SinceLastStart()); len(p) != 2 || !p[0].UpNow() || !p[1].UpNow() {
		t.Errorf("gpfs02 mmfs.log peers %+v", p)
	}
	for _, cmd := range []string{"mmchconfig maxMBpS=4000", "mmshutdown -N gpfs03", "mmstartup -N gpfs03"} {
		r := l.must("gpfs01", cmd)
		if res := pg.ParseCommandResult([]byte(r.out + r.err)); !res.OK() {
			t.Errorf("%s: %+v", cmd, res)
		}
	}
	r := l.run("gpfs01", "mmchconfig bogus=1")
	if res := pg.ParseCommandResult([]byte(r.out + r.err)); res.OK() || !res.Failed {
		t.Errorf("failed mmchconfig read as %+v", res)
	}
}

// NSDs with a primary and a backup server, and the file system mounted on
// the active nodes while every NSD has a server: read by the parsers.
func TestParsersReadNSDsAndMounts(t *testing.T) {
	l := newFakeLab(t, "cluster {\n  servers = 3\n  nodes = 5\n}\n", 5)
	for _, cmd := range []string{"mmlsnsd", "mmlsnsd -L"} {
		n, err := pg.ParseMmlsnsd([]byte(l.must("gpfs04", cmd).out))
		if err != nil {
			t.Fatalf("%s: %v", cmd, err)
		}
		if d, _ := n.Disk("nsd03"); len(n.Disks) != 3 || strings.Join(d.Servers, ",") != "gpfs03,gpfs01" || d.FileSystem != "gpfs0" {
			t.Errorf("%s: %+v", cmd, n.Disks)
		}
	}
	mounts := func() *pg.Mounts {
		m, err := pg.ParseMmlsmount([]byte(l.must("gpfs05", "mmlsmount all -L").out))
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	if m := mounts(); len(m.On("gpfs05")) != 1 || m.FileSystems[0].Count != 5 {
		t.Errorf("all up: %+v", m)
	}
	l.must("gpfs01", "mmshutdown -N gpfs04")
	if m := mounts(); m.MountedOn("gpfs0", "gpfs04") || !m.MountedOn("gpfs0", "gpfs05") {
		t.Errorf("client down: %+v", m)
	}
	// nsd01 is served by gpfs01 and gpfs02: with both down nobody has the
	// file system.
	l.must("gpfs01", "mmshutdown -N gpfs01,gpfs02")
	if m := mounts(); len(m.FileSystems) != 1 || m.FileSystems[0].Count != 0 {
		t.Errorf("both servers of nsd01 down: %+v", m)
	}
}

// Node classes: mmcrnodeclass/mmchnodeclass/mmdelnodeclass change what
// mmlsnodeclass prints, in both forms, and -N takes a user class.
func TestParsersReadNodeClasses(t *testing.T) {
	l := newFakeLab(t, "cluster {\n  servers = 2\n  nodes = 4\n}\n", 4)
	l.must("gpfs01", "mmcrnodeclass siteA -N gpfs01,gpfs03")
	l.must("gpfs01", "mmcrnodeclass siteB -N gpfs04")
	l.must("gpfs01", "mmcrnodeclass siteAB -N siteA,siteB")
	l.must("gpfs01", "mmchnodeclass siteB add -N gpfs02")
	for _, bad := range []string{"mmcrnodeclass siteA -N gpfs02", "mmcrnodeclass fastNodes -N gpfs02", "mmcrnodeclass x -N siteAB",
		"mmcrnodeclass y -N nosuch", "mmchnodeclass nosuch add -N gpfs01", "mmlsnodeclass nosuch", "mmdelnodeclass nosuch"} {
		if r := l.run("gpfs01", bad); r.status == 0 {
			t.Errorf("%s: exit 0", bad)
		}
	}
	plain, err := pg.ParseMmlsnodeclass([]byte(l.must("gpfs02", "mmlsnodeclass --all").out))
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(plain.Nodes("siteAB"), ","); got != "gpfs01,gpfs03,gpfs04,gpfs02" {
		t.Errorf("siteAB = %s", got)
	}
	if got := strings.Join(plain.Nodes("quorumNodes"), ","); got != "gpfs01,gpfs02" {
		t.Errorf("quorumNodes = %s", got)
	}
	y, err := pg.ParseMmlsnodeclassY([]byte(l.must("gpfs02", "mmlsnodeclass -Y").out))
	if err != nil {
		t.Fatal(err)
	}
	if c, _ := y.Class("siteAB"); len(y.Classes) != 3 || c.Type != "user" || strings.Join(c.Members, ",") != "gpfs01,gpfs02,gpfs03,gpfs04" {
		t.Errorf("-Y: %+v", y.Classes)
	}
	user, err := pg.ParseMmlsnodeclass([]byte(l.must("gpfs02", "mmlsnodeclass").out))
	if err != nil || len(user.Classes) != 3 {
		t.Errorf("user classes: %+v %v", user, err)
	}
	// -N takes a user class.
	l.must("gpfs01", "mmshutdown -N siteB")
	st, err := pg.ParseMmgetstate([]byte(l.must("gpfs01", "mmgetstate -a").out))
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range st.Nodes {
		if down := n.State == "down"; down != (n.Name == "gpfs02" || n.Name == "gpfs04") {
			t.Errorf("after mmshutdown -N siteB: %+v", n)
		}
	}
	l.must("gpfs01", "mmdelnodeclass siteAB,siteB")
	if after, _ := pg.ParseMmlsnodeclass([]byte(l.must("gpfs02", "mmlsnodeclass").out)); len(after.Classes) != 1 {
		t.Errorf("after mmdelnodeclass: %+v", after.Classes)
	}
}

// Each daemon start opens a new log file named as GPFS names it, and
// mmfs.log.latest / mmfs.log.previous are links to the newest two
// (samples/gpfs/ls-latr-var-adm-ras-mmfs-log-links-4.x.txt); lines logged
// later go to the run's file.
func TestLogFilePerDaemonRun(t *testing.T) {
	l := newFakeLab(t, "cluster {\n  servers = 3\n}\n", 3)
	l.must("gpfs01", "mmgetstate")
	ras := filepath.Join(l.dir, "nodes", "gpfs02", "root", filepath.Dir(LogPath))
	first, err := os.Readlink(filepath.Join(ras, "mmfs.log.latest"))
	if err != nil {
		t.Fatal(err)
	}
	l.must("gpfs01", "mmshutdown -N gpfs02")
	l.now = l.now.Add(time.Minute)
	l.must("gpfs01", "mmstartup -N gpfs02")
	latest, err1 := os.Readlink(filepath.Join(ras, "mmfs.log.latest"))
	previous, err2 := os.Readlink(filepath.Join(ras, "mmfs.log.previous"))
	name := regexp.MustCompile(`^mmfs\.log\.\d{4}\.\d\d\.\d\d\.\d\d\.\d\d\.\d\d\.gpfs02$`)
	if err1 != nil || err2 != nil || !name.MatchString(latest) || previous != first || latest == first {
		t.Fatalf("latest %q (%v), previous %q (%v), first %q", latest, err1, previous, err2, first)
	}
	prev, err := os.ReadFile(filepath.Join(ras, previous))
	if err != nil || !strings.Contains(string(prev), "mmfsd is shutting down") && !strings.Contains(string(prev), "Shutting down") {
		t.Errorf("the previous run's file lacks its shutdown (%v):\n%s", err, prev)
	}
	lg, err := pg.ParseMmfsLog([]byte(l.log("gpfs02")))
	if err != nil || len(lg.Starts) != 1 || lg.Starts[0] != 0 {
		t.Fatalf("mmfs.log.latest: %v, starts %+v", err, lg)
	}
}
