package gpfs

import (
	"strings"
	"testing"

	"github.com/provadev/prova/lab/scenario"
)

func diagValue(t *testing.T, l *fakeLab, node, attr string) string {
	t.Helper()
	for _, line := range splitOut(l.must(node, "mmdiag --config").out) {
		f := strings.Fields(strings.TrimPrefix(line, "!"))
		if len(f) > 0 && f[0] == attr {
			return strings.Join(f[1:], " ")
		}
	}
	t.Fatalf("%s: no %s in mmdiag --config", node, attr)
	return ""
}

func TestEffectiveOnlyAfterRestart(t *testing.T) {
	l := newFakeLab(t, "", 3)
	l.must("gpfs01", enableVerbs+",verbsRdmaSend=yes")
	l.must("gpfs01", "mmchconfig pagepool=16G -N nsdNodes")
	if got := l.must("gpfs02", "mmlsconfig verbsPorts").out; got != "verbsPorts mlx5_0/1 mlx5_1/1\n" {
		t.Errorf("mmlsconfig verbsPorts = %q", got)
	}
	if got := l.must("gpfs01", "mmlsconfig pagepool").out; got != "pagepool 16G [nsdNodes]\n" {
		t.Errorf("mmlsconfig pagepool = %q", got)
	}
	for _, n := range []string{"gpfs01", "gpfs03"} {
		if v := diagValue(t, l, n, "verbsRdma"); v != "disable" {
			t.Errorf("%s effective verbsRdma %q before restart", n, v)
		}
		if v := diagValue(t, l, n, "pagepool"); v != "1073741824" {
			t.Errorf("%s effective pagepool %q before restart", n, v)
		}
	}
	l.must("gpfs01", "mmshutdown -N gpfs01")
	l.must("gpfs01", "mmstartup -N gpfs01")
	if v := diagValue(t, l, "gpfs01", "verbsPorts"); v != "mlx5_0/1 mlx5_1/1" {
		t.Errorf("gpfs01 verbsPorts %q after restart", v)
	}
	if v := diagValue(t, l, "gpfs01", "pagepool"); v != "17179869184" {
		t.Errorf("gpfs01 pagepool %q after restart (nsd server)", v)
	}
	if v := diagValue(t, l, "gpfs01", "verbsRdmaSend"); v != "1" {
		t.Errorf("gpfs01 verbsRdmaSend %q", v)
	}
	if v := diagValue(t, l, "gpfs03", "verbsRdma"); v != "disable" {
		t.Errorf("gpfs03 changed without a restart: %q", v)
	}
	// gpfs01 runs verbs but its peers do not: no RDMA connection yet.
	if got := l.verbsPeers("gpfs01"); len(got) != 0 {
		t.Errorf("gpfs01 peers %v while the others run without verbs", got)
	}
	l.must("gpfs02", "mmshutdown -N gpfs02,gpfs03")
	l.must("gpfs02", "mmstartup -N gpfs02,gpfs03")
	if got := l.verbsPeers("gpfs01"); len(got) != 4 {
		t.Errorf("gpfs01 peers %v after its peers restarted", got)
	}
	if v := diagValue(t, l, "gpfs03", "pagepool"); v != "1073741824" {
		t.Errorf("gpfs03 (client) pagepool %q", v)
	}
	// -i changes an immediate attribute in the running daemon.
	l.must("gpfs01", "mmchconfig maxMBpS=8000 -i")
	if v := diagValue(t, l, "gpfs03", "maxMBpS"); v != "8000" {
		t.Errorf("maxMBpS after -i: %q", v)
	}
	if y := l.must("gpfs03", "mmdiag --config -Y").out; !strings.Contains(y, ":::maxMBpS:8000:dynamic:\n") {
		t.Errorf("-Y: %s", y)
	}
}

func TestArbitratingThenActive(t *testing.T) {
	l := newFakeLab(t, "", 4)                              // quorum nodes: gpfs01, gpfs02 (need 2)
	l.must("gpfs01", "mmchconfig tiebreakerDisks=DEFAULT") // node quorum without tiebreaker disks
	l.must("gpfs01", "mmshutdown -a")
	l.must("gpfs01", "mmstartup -N gpfs01,gpfs03")
	l.now = l.now.Add(DefaultSettle)
	// one quorum node of two: no quorum, arbitrating however long it waits
	if got := l.must("gpfs03", "mmgetstate").out; !strings.Contains(got, " arbitrating") {
		t.Errorf("without quorum: %s", got)
	}
	l.must("gpfs03", "mmstartup -N gpfs02")
	for _, n := range []string{"gpfs01", "gpfs02", "gpfs03"} {
		if got := l.must(n, "mmgetstate -Y").out; !strings.Contains(got, ":arbitrating:") {
			t.Errorf("%s just after start: %s", n, got)
		}
	}
	l.now = l.now.Add(DefaultSettle - 1)
	if got := l.must("gpfs02", "mmgetstate").out; !strings.Contains(got, " arbitrating") {
		t.Errorf("before the settle time: %s", got)
	}
	l.now = l.now.Add(1)
	if got := l.must("gpfs01", "mmgetstate -a").out; strings.Count(got, " active") != 3 || !strings.Contains(got, "gpfs04     down") {
		t.Errorf("after the settle time:\n%s", got)
	}
	l.must("gpfs01", "mmshutdown -N gpfs02")
	if got := l.must("gpfs01", "mmgetstate").out; !strings.Contains(got, " arbitrating") {
		t.Errorf("after losing quorum: %s", got)
	}
}

func TestMmchconfigErrors(t *testing.T) {
	l := newFakeLab(t, "", 2)
	for _, tc := range []struct{ cmd, msg string }{
		{"mmchconfig fooBar=1", "mmchconfig: Unknown attribute fooBar."},
		{"mmchconfig verbsRdma=maybe", `mmchconfig: Invalid value "maybe" for attribute verbsRdma: must be one of enable, disable.`},
		{"mmchconfig pagepool=lots", `mmchconfig: Invalid value "lots" for attribute pagepool`},
		{`mmchconfig verbsPorts="mlx5_0:1"`, `"mlx5_0:1" is not of the form device[/port[/fabnum]]`},
		{"mmchconfig verbsRdma=enable -i", "The -i flag is not valid for attribute verbsRdma"},
		{"mmchconfig clusterName=x", "The clusterName attribute cannot be changed"},
		{"mmchconfig pagepool=2G -N gpfs09", "Incorrect node gpfs09 specified"},
	} {
		r := l.run("gpfs01", tc.cmd)
		if r.status != 1 || !strings.Contains(r.err, tc.msg) || !strings.HasSuffix(r.err, "mmchconfig: Command failed. Examine previous error messages to determine cause.\n") || len(r.writes) != 0 {
			t.Errorf("%s: status %d writes %v stderr %q", tc.cmd, r.status, r.writes, r.err)
		}
	}
	if r := l.run("gpfs01", "mmchconfig"); r.status != 1 || !strings.Contains(r.err, "Usage:") {
		t.Errorf("no argument: %d %q", r.status, r.err)
	}
	if got := l.must("gpfs01", "mmlsconfig").out; strings.Contains(got, "verbs") || strings.Contains(got, "pagepool") {
		t.Errorf("a failed mmchconfig stored something:\n%s", got)
	}
	l.must("gpfs01", "mmchconfig Pagepool=2g")
	l.must("gpfs01", "mmchconfig pagepool=DEFAULT")
	if got := l.must("gpfs01", "mmlsconfig pagepool").out; got != "pagepool 1G\n" {
		t.Errorf("after DEFAULT: %q", got)
	}
}

func TestMmlsconfigSample(t *testing.T) {
	want := sampleLines(t, "gpfs/mmlsconfig-clean-4.2.3-PARTIAL.txt", "mmlsconfig", 0)
	l := newFakeLab(t, "", 3)
	l.must("gpfs01", "mmchconfig nfsPrefetchStrategy=1,maxReceiverThreads=32,maxFilesToCache=4M -N gpfs01,gpfs02,gpfs03")
	l.must("gpfs01", "mmchconfig verbsRdma=enable")
	got := splitOut(l.must("gpfs01", "mmlsconfig").out)
	if got[0] != "Configuration data for cluster lab.prova:" || len(got[1]) != len(got[0]) || len(want[1]) != len(want[0]) {
		t.Errorf("title %q %q (sample %q %q)", got[0], got[1], want[0], want[1])
	}
	section := indexOf(want, "[gpfs01,gpfs02,gpfs03]")
	for _, w := range append(want[2:7], want[section:section+3]...) {
		if indexOf(got, w) < 0 && !strings.HasPrefix(w, "cluster") && !strings.HasPrefix(w, "minRelease") {
			t.Errorf("sample line %q missing:\n%s", w, strings.Join(got, "\n"))
		}
	}
	if i := indexOf(got, "[common]"); i < 0 || got[i+1] != "verbsRdma enable" || i < indexOf(got, "[gpfs01,gpfs02,gpfs03]") {
		t.Errorf("cluster-wide line after a node section:\n%s", strings.Join(got, "\n"))
	}
	y := l.must("gpfs01", "mmlsconfig -Y").out
	if !strings.HasPrefix(y, "mmlsconfig::HEADER:version:reserved:reserved:configParameter:value:nodeList:\n") ||
		!strings.Contains(y, "mmlsconfig::0:1:::maxFilesToCache:4M:gpfs01,gpfs02,gpfs03:\n") || !strings.Contains(y, "mmlsconfig::0:1:::verbsRdma:enable::\n") {
		t.Errorf("mmlsconfig -Y:\n%s", y)
	}
}

func TestAuditMarksAndExpand(t *testing.T) {
	l := newFakeLab(t, "", 3)
	for _, c := range []string{"mmlscluster", "mmgetstate -a", "mmlsconfig", "mmdiag --config", "mmfsadm test verbs conn"} {
		if r := l.must("gpfs01", c); len(r.writes) != 0 {
			t.Errorf("%s recorded writes %v", c, r.writes)
		}
	}
	for _, c := range []string{enableVerbs, "mmshutdown -N gpfs02", "mmstartup -a"} {
		if r := l.must("gpfs01", c); len(r.writes) == 0 {
			t.Errorf("%s recorded no write", c)
		}
	}
	if r := l.must("gpfs01", "mmstartup -a"); len(r.writes) != 0 || !strings.Contains(r.out, "already active") {
		t.Errorf("starting running daemons: %v %q", r.writes, r.out)
	}
	l.now = l.now.Add(DefaultSettle)
	// lab expand: the new node joins, active, with the cluster's values.
	l.expand(scenario.Healthy(), 4)
	r := l.must("gpfs02", "mmlscluster")
	if len(r.writes) != 0 || !strings.Contains(r.out, "   4   gpfs04 ") {
		t.Errorf("after expand: %v\n%s", r.writes, r.out)
	}
	if v := diagValue(t, l, "gpfs04", "verbsRdma"); v != "enable" {
		t.Errorf("joined node verbsRdma %q", v)
	}
	if got := l.must("gpfs04", "mmgetstate").out; !strings.Contains(got, " active") {
		t.Errorf("joined node: %s", got)
	}
}
