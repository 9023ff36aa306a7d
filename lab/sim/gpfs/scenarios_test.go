package gpfs

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

func scenarioSrc(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "..", "examples", "lab", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// restart configures verbs with ports, restarts every daemon and moves
// the clock past the settle time.
func (l *fakeLab) restart(ports string) {
	l.t.Helper()
	l.must("gpfs01", `mmchconfig verbsRdma=enable,verbsPorts="`+ports+`"`)
	l.must("gpfs01", "mmshutdown -a")
	l.must("gpfs01", "mmstartup -a")
	l.now = l.now.Add(DefaultSettle)
}

var (
	closedLine = regexp.MustCompile(`^\d{4}-\d\d-\d\d_\d\d:\d\d:\d\d\.\d{3}[+-]\d{4}: \[E\] VERBS RDMA closed connection to \S+ \(\S+\) on mlx5_\d+ port \d+ fabnum \d+ index \d+ cookie \d+ error (\d+)$`)
	tcpLine    = regexp.MustCompile(`^\d{4}-\d\d-\d\d_\d\d:\d\d:\d\d\.\d{3}[+-]\d{4}: \[[IN]\] (Connecting to|Connected to|Accepted and connected to) \S+ \S+ <c0n\d+>:\[\d\]$`)
)

func TestScenarios(t *testing.T) {
	all := []string{"gpfs01", "gpfs02", "gpfs03", "gpfs04"}
	for _, tc := range []struct {
		file, ports string
		peers4      []string // peers of gpfs04 (the faulty node)
		status4     string
		logs4       []string // lines gpfs04's mmfs.log has since the restart
		closedOn    string   // node whose log has the closed-connection lines
		errCode     string
	}{
		{"gpfs-healthy.hcl", "mlx5_0/1 mlx5_1/1", []string{"gpfs01", "gpfs01", "gpfs02", "gpfs02", "gpfs03", "gpfs03"}, "started", []string{"VERBS RDMA started."}, "", ""},
		{"gpfs-wrong-port.hcl", "mlx5_0/1 mlx5_1/1", []string{"gpfs01", "gpfs02", "gpfs03"}, "started",
			[]string{"[E] VERBS RDMA: device mlx5_1 does not exist, verbsPorts entry mlx5_1/1 ignored", "VERBS RDMA started."}, "", ""},
		{"gpfs-wrong-port.hcl", "mlx5_1/1", nil, "disabled",
			[]string{"[E] VERBS RDMA: device mlx5_1 does not exist, verbsPorts entry mlx5_1/1 ignored", "VERBS RDMA not started"}, "", ""},
		{"gpfs-port-down.hcl", "mlx5_0/1 mlx5_1/1", nil, "disabled",
			[]string{"[E] VERBS RDMA: device mlx5_0 port 1 is not active (state Down, physical state Polling), verbsPorts entry mlx5_0/1 ignored"}, "", ""},
		{"gpfs-no-ofed.hcl", "mlx5_0/1 mlx5_1/1", nil, "disabled", []string{"[E] VERBS RDMA library libibverbs.so not found"}, "", ""},
		{"gpfs-ofed-mismatch.hcl", "mlx5_0/1 mlx5_1/1", nil, "started", []string{"VERBS RDMA started.", "error 73"}, "gpfs04", "73"},
		{"gpfs-firewall.hcl", "mlx5_0/1 mlx5_1/1", nil, "started", []string{"VERBS RDMA started.", "failed: Connection refused"}, "gpfs04", "111"},
	} {
		t.Run(tc.file+"/"+tc.ports, func(t *testing.T) {
			l := newFakeLab(t, scenarioSrc(t, tc.file), 4)
			l.must("gpfs01", "mmgetstate") // the cluster exists from here on
			l.restart(tc.ports)
			for _, n := range all[:3] {
				var want []string
				for _, p := range all[:3] {
					for range strings.Fields(tc.ports) { // one connection per port
						if p != n {
							want = append(want, p)
						}
					}
				}
				if slices.Contains(tc.peers4, n) {
					want = append(want, "gpfs04")
					if tc.file == "gpfs-healthy.hcl" {
						want = append(want, "gpfs04")
					}
				}
				slices.Sort(want)
				got := l.verbsPeers(n)
				slices.Sort(got)
				if !slices.Equal(got, want) {
					t.Errorf("%s peers %v, want %v", n, got, want)
				}
			}
			if tc.status4 == "started" {
				got := l.verbsPeers("gpfs04")
				slices.Sort(got)
				if !slices.Equal(got, tc.peers4) {
					t.Errorf("gpfs04 peers %v, want %v", got, tc.peers4)
				}
			}
			if st := l.must("gpfs04", "mmfsadm test verbs status").out; st != "VERBS RDMA status: "+tc.status4+"\n" {
				t.Errorf("gpfs04 status %q", st)
			}
			// The restart opened a new log file: mmfs.log.latest is this run's.
			since := l.log("gpfs04")
			if !strings.Contains(strings.SplitN(since, "\n", 2)[0], "runmmfs starting") {
				t.Errorf("gpfs04 mmfs.log.latest does not begin with the daemon's start:\n%s", since)
			}
			for _, want := range tc.logs4 {
				if !strings.Contains(since, want) {
					t.Errorf("gpfs04 log lacks %q:\n%s", want, since)
				}
			}
			closed := 0
			for _, n := range all {
				for _, line := range splitOut(l.log(n)) {
					if m := closedLine.FindStringSubmatch(line); m != nil {
						closed++
						if n != tc.closedOn || m[1] != tc.errCode {
							t.Errorf("%s: unexpected %q", n, line)
						}
					}
				}
			}
			if (closed > 0) != (tc.closedOn != "") {
				t.Errorf("%d closed-connection lines", closed)
			}
			// Every node is active and talks TCP to all peers either way.
			for _, n := range all {
				if st := l.must("gpfs01", "mmgetstate -N "+n).out; !strings.Contains(st, " active") {
					t.Errorf("%s: %s", n, st)
				}
			}
		})
	}
}

// The log line formats follow the real samples.
func TestLogLineSamples(t *testing.T) {
	for _, line := range sampleLines(t, "gpfs/mmfs-log-verbs-rdma-closed-connection-errors.txt", "", 0) {
		if !closedLine.MatchString(line) {
			t.Fatalf("pattern does not match the sample line %q", line)
		}
	}
	for _, line := range sampleLines(t, "gpfs/mmfs-log-latest-tail-tcp-connects.txt", "", 0) {
		if !tcpLine.MatchString(line) {
			t.Fatalf("pattern does not match the sample line %q", line)
		}
	}
	l := newFakeLab(t, scenarioSrc(t, "gpfs-firewall.hcl"), 4)
	l.restart("mlx5_0/1")
	tcp := 0
	for _, line := range splitOut(l.log("gpfs02")) {
		if strings.Contains(line, "onnect") && !strings.Contains(line, "VERBS") && !strings.Contains(line, "Close") {
			tcp++
			if !tcpLine.MatchString(line) {
				t.Errorf("TCP line %q does not have the sample's format", line)
			}
		}
	}
	if tcp < 3 {
		t.Errorf("%d TCP connection lines", tcp)
	}
	if !closedLine.MatchString(grepLine(l.log("gpfs04"), "closed connection")) {
		t.Errorf("no closed-connection line in %s", l.log("gpfs04"))
	}
}

func grepLine(text, sub string) string {
	for _, line := range splitOut(text) {
		if strings.Contains(line, sub) {
			return line
		}
	}
	return ""
}
