package gpfs

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/provadev/prova/internal/testkit/samples"
)

const enableVerbs = `mmchconfig verbsRdma=enable,verbsPorts="mlx5_0/1 mlx5_1/1"`

func TestMmchconfigSamples(t *testing.T) {
	l := newFakeLab(t, "", 3)
	r := l.must("gpfs01", "mmchconfig nfsPrefetchStrategy=1,maxReceiverThreads=32,pagepool=32G -N gpfs01,gpfs02,gpfs03")
	want := sampleLines(t, "gpfs/mmchconfig-success-propagating-4.2.3.txt", "./mmchconfig", 0)
	if got := splitOut(r.out + r.err); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("mmchconfig = %q, sample %q", got, want)
	}
	// mmaddnode propagates with the same two lines (its last is cut).
	add := sampleLines(t, "gpfs/mmaddnode-partial-failure-unreachable-4.2.3.txt", "", 0)
	prop := strings.ReplaceAll(add[len(add)-2]+"\n"+add[len(add)-1], "mmaddnode", "mmchconfig")
	if !strings.HasPrefix(r.err, "mmchconfig: Command successfully completed\n"+prop) {
		t.Errorf("propagating lines %q not in %q", prop, r.err)
	}
	// tiebreakerDisks: a value with ';' is stored as given, and the
	// arbitrating -aL row has the sample's words.
	tb := sampleLines(t, "gpfs/mmchconfig-tiebreakerDisks-and-mmstartup-2023.txt", "", 4)
	r = l.must("gpfs01", `mmchconfig tiebreakerDisks="tiebreaker1;tiebreaker2;tiebreaker3"`)
	if strings.Fields(r.err)[1] != strings.Fields(tb[2])[1] || l.must("gpfs01", "mmlsconfig tiebreakerDisks").out != "tiebreakerDisks tiebreaker1;tiebreaker2;tiebreaker3\n" {
		t.Errorf("tiebreakerDisks: %q", r.err)
	}
	l.must("gpfs01", "mmshutdown -a")
	l.must("gpfs01", "mmstartup -a")
	wh, _, wrows := table(t, tb)
	gh, _, grows := table(t, splitOut(l.must("gpfs01", "mmgetstate -aL").out))
	if strings.Join(strings.Fields(gh), " ") != strings.Join(strings.Fields(wh), " ") ||
		strings.Join(strings.Fields(grows[0])[2:], " ") != strings.Join(strings.Fields(wrows[0])[2:], " ") {
		t.Errorf("-aL arbitrating: %q / %q, sample %q / %q", gh, grows[0], wh, wrows[0])
	}
}

func TestMmgetstateLongSample(t *testing.T) {
	l := newFakeLab(t, "", 2)
	want := sampleLines(t, "gpfs/mmstartup-a-and-mmgetstate-aL-active.txt", "mmgetstate -aL", 0)
	got := splitOut(l.must("gpfs01", "mmgetstate -aL").out)
	wh, wr, wrows := table(t, want)
	gh, gr, grows := table(t, got)
	if strings.Join(strings.Fields(gh), " ") != strings.Join(strings.Fields(wh), " ") || len(gr) != len(gh)+4 || len(wr) != len(wh)+4 {
		t.Errorf("header %q %d, sample %q %d", gh, len(gr), wh, len(wr))
	}
	for i := range wrows {
		w, g := strings.Fields(wrows[i]), strings.Fields(grows[i])
		w[1], g[1] = "NODE", "NODE"
		if strings.Join(w, " ") != strings.Join(g, " ") {
			t.Errorf("row %q, sample %q", grows[i], wrows[i])
		}
	}
	start := sampleLines(t, "gpfs/mmstartup-a-and-mmgetstate-aL-active.txt", "mmstartup -a", 0)
	if len(start) != 1 || !strings.HasSuffix(start[0], ": mmstartup: Starting GPFS ...") {
		t.Fatalf("sample changed: %q", start)
	}
}

// normalize replaces dates, node names, numbers and kernel versions so
// that output lines compare with a sample's by shape.
func normalize(line string) string {
	line = regexp.MustCompile(`^\w{3} \w{3} [ \d]\d \d\d:\d\d:\d\d \S+ \d{4}:`).ReplaceAllString(line, "DATE:")
	line = regexp.MustCompile(`^[a-z][a-z0-9-]*\d:  `).ReplaceAllString(line, "NODE:  ")
	line = regexp.MustCompile(`/lib/modules/\S+/extra`).ReplaceAllString(line, "/lib/modules/K/extra")
	return regexp.MustCompile(`\d+$`).ReplaceAllString(line, "N")
}

func TestMmshutdownSamples(t *testing.T) {
	l := newFakeLab(t, "", 2)
	got := splitOut(l.must("gpfs01", "mmshutdown -a").out)
	want := sampleLines(t, "gpfs/mmshutdown-a-2-nodes-4.2-el7.txt", "mmshutdown -a", 0)
	if len(got) != len(want) {
		t.Fatalf("mmshutdown -a: %d lines, sample %d:\n%s", len(got), len(want), strings.Join(got, "\n"))
	}
	for i := range got {
		if normalize(got[i]) != normalize(want[i]) {
			t.Errorf("line %d %q, sample %q", i, got[i], want[i])
		}
	}
	// Every kind of line also appears in the EL6 sample (which adds tracedev).
	kinds := map[string]bool{}
	for _, w := range sampleLines(t, "gpfs/mmshutdown-a-3-nodes-tracedev-el6.txt", "mmshutdown -a", 0) {
		kinds[normalize(w)] = true
	}
	for _, g := range got {
		if !kinds[normalize(g)] {
			t.Errorf("%q not in the EL6 sample", g)
		}
	}
	// -N: the 3.x samples, without the unmount and module lines.
	l.must("gpfs01", "mmstartup -a")
	got = splitOut(l.must("gpfs01", "mmshutdown -N gpfs02").out)
	for _, rel := range []string{"gpfs/mmshutdown-N-single-node-ok-cherub-fixture.txt", "gpfs/mmshutdown-N-device-busy-cherub-fixture.txt"} {
		var w, g []string
		for _, x := range sampleLines(t, rel, "", 0) {
			if !strings.Contains(x, "unmount of /") && !strings.Contains(x, "umount") {
				w = append(w, normalize(x))
			}
		}
		for _, x := range got {
			if !strings.Contains(x, "Unloading") {
				g = append(g, normalize(x))
			}
		}
		if strings.Join(g, "\n") != strings.Join(w, "\n") {
			t.Errorf("mmshutdown -N:\n%s\nsample %s:\n%s", strings.Join(g, "\n"), rel, strings.Join(w, "\n"))
		}
	}
}

func TestMmdiagSamples(t *testing.T) {
	l := newFakeLab(t, "", 3)
	l.must("gpfs01", "mmchconfig pagepool=4G")
	l.must("gpfs01", "mmshutdown -N gpfs01")
	l.must("gpfs01", "mmstartup -N gpfs01")
	y := sampleLines(t, "gpfs/mmdiag-config-Y-changed-column.txt", "", 0)
	got := splitOut(l.must("gpfs01", "mmdiag --config -Y").out)
	if got[0] != y[0] {
		t.Errorf("header %q, sample %q", got[0], y[0])
	}
	for _, line := range y[3:] { // the pagepool, pagepoolMaxPhysMemPct and parallelMetadataWrite rows
		if !strings.Contains("\n"+strings.Join(got, "\n")+"\n", "\n"+line+"\n") {
			t.Errorf("sample row %q not in output", line)
		}
	}
	for _, g := range got[1:] {
		if strings.Count(g, ":") != strings.Count(y[3], ":") {
			t.Errorf("row %q has a different field count", g)
		}
	}
	net := sampleLines(t, "gpfs/mmdiag-network-mrot-tcp-compute-cluster.txt", "mmdiag --network", 0)
	got = splitOut(l.must("gpfs01", "mmdiag --network").out)
	for i, w := range []int{0, 1, 2, 3, 4, 5} {
		if got[i] != net[w] {
			t.Errorf("line %d %q, sample %q", i, got[i], net[w])
		}
	}
	ti, si := indexOf(got, "TCP Connections between nodes:"), indexOf(net, "TCP Connections between nodes:")
	if ti < 0 || got[ti+1] != net[si+1] || len(strings.Fields(got[ti+2])) != len(strings.Fields(net[si+2])) {
		t.Errorf("TCP table:\n%s\n%s", got[ti+1], got[ti+2])
	}
	gw, sw := regexp.MustCompile(`\S+`).FindAllStringIndex(got[ti+2], -1), regexp.MustCompile(`\S+`).FindAllStringIndex(net[si+2], -1)
	for k := 1; k < len(sw); k++ { // columns after the host name start where the sample's do
		if gw[k][0] != sw[k][0] && gw[k][1] != sw[k][1] {
			t.Errorf("column %d at %v, sample %v", k, gw[k], sw[k])
		}
	}
	if r := l.run("gpfs03", "mmdiag --config"); r.status != 0 || l.must("gpfs01", "mmshutdown -N gpfs03").status != 0 {
		t.Fatal("setup")
	}
	if r := l.run("gpfs03", "mmdiag --config"); r.status == 0 || r.out != "" || !strings.Contains(r.err, "Failed to connect to file system daemon") {
		t.Errorf("daemon down: %d %q %q", r.status, r.out, r.err)
	}
}

func indexOf(lines []string, s string) int {
	for i, l := range lines {
		if l == s {
			return i
		}
	}
	return -1
}

func TestVerbsStatusAndConnFormat(t *testing.T) {
	l := newFakeLab(t, "", 3)
	if got := l.must("gpfs01", "mmfsadm test verbs status").out; got != string(samples.Read(t, "gpfs/mmfsadm-test-verbs-status-disabled.txt")) {
		t.Errorf("disabled: %q", got)
	}
	l.must("gpfs01", enableVerbs)
	l.must("gpfs01", "mmshutdown -a")
	l.must("gpfs01", "mmstartup -a")
	if got := l.must("gpfs02", "mmfsadm test verbs status").out; got != string(samples.Read(t, "gpfs/mmfsadm-test-verbs-status-started.txt")) {
		t.Errorf("started: %q", got)
	}
	// The documented example, rendered with connRow, is the page's block.
	doc, err := os.ReadFile(filepath.Join("..", "..", "..", "docs", "gpfs-verbs-conn.md"))
	if err != nil {
		t.Fatal(err)
	}
	block := strings.SplitN(strings.SplitN(string(doc), "## The assumed format (exact)\n\n```\n", 2)[1], "```", 2)[0]
	var b strings.Builder
	b.WriteString("RDMA Connections between nodes:\n")
	for _, row := range [][]any{{"destination", "hostname", "state", "device", "port", "qps", "idx", "cookie"},
		{"10.10.1.12", "gpfs02", "connected", "mlx5_0", "1", "2", "0", "17"}, {"10.10.1.13", "gpfs03", "connected", "mlx5_0", "1", "2", "1", "18"},
		{"10.10.1.14", "-", "connecting", "mlx5_1", "1", "0", "2", "19"}, {"10.10.1.15", "gpfs05", "disconnected", "mlx5_0", "1", "0", "3", "20"}} {
		b.WriteString(strings.TrimRight(fmt.Sprintf(connRow, row...), " \n") + "\n")
	}
	if b.String() != block {
		t.Errorf("connRow renders\n%s\nthe doc has\n%s", b.String(), block)
	}
	conn := splitOut(l.must("gpfs01", "mmfsadm test verbs conn").out)
	if conn[0] != "RDMA Connections between nodes:" || conn[1] != strings.Split(block, "\n")[1] || len(conn) != 2+2*2 {
		t.Errorf("verbs conn:\n%s", strings.Join(conn, "\n"))
	}
}
