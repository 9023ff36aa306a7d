package gpfscmd

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/provadev/prova/parse"
)

// runLogCommand runs the log read as a remote shell would, with the real
// awk of this machine (the program is POSIX awk).
func runLogCommand(t *testing.T, path string, head, tail int) (stdout, stderr string, rc int) {
	return runLogCommandN(t, path, head, tail, logTailLines)
}

func runLogCommandN(t *testing.T, path string, head, tail, ring int) (stdout, stderr string, rc int) {
	t.Helper()
	if _, err := exec.LookPath("awk"); err != nil {
		t.Fatalf("awk: %v (the GPFS log is read with awk)", err)
	}
	cmd := exec.Command("sh", "-c", logCommand(path, head, tail, ring))
	cmd.Dir = filepath.Dir(path)
	var o, e strings.Builder
	cmd.Stdout, cmd.Stderr = &o, &e
	err := cmd.Run()
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		t.Fatal(err)
	}
	return o.String(), e.String(), cmd.ProcessState.ExitCode()
}

func writeLog(t *testing.T, name string, lines ...string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	text := strings.Join(lines, "\n")
	if len(lines) > 0 {
		text += "\n"
	}
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func stamp(i int) string {
	return fmt.Sprintf("2026-12-01_10:%02d:%02d.%03d+0000:", i/60000%60, i/1000%60, i%1000)
}

// run is a daemon run's log: the start, VERBS RDMA started and, per peer,
// a connected line (a closed one for the peers in closed).
func run(from int, peers int, closed map[int]bool) []string {
	l := []string{stamp(from) + " runmmfs starting", "Removing old /var/adm/ras/mmfs.log.* files:",
		stamp(from+1) + " [I] mmfsd initializing. {Version: 5.1.9.0   Built: Oct 25 2023 12:21:35} ...",
		stamp(from+2) + " [I] VERBS RDMA started."}
	for p := 1; p <= peers; p++ {
		verb := "connected to"
		if closed[p] {
			verb = "closed connection to"
		}
		l = append(l, fmt.Sprintf("%s [I] VERBS RDMA %s 10.0.0.%d (gpfs%02d) on mlx5_0 port 1 fabnum 0 index %d cookie %d", stamp(from+2+p), verb, p, p, p, p))
	}
	return l
}

// relevant drops the lines the read does not send (run's "Removing old"
// script line) and adds its count line.
func relevant(lines []string, runLines int) string {
	var b strings.Builder
	n := 0
	for _, l := range lines {
		if strings.HasPrefix(l, "Removing old") {
			continue
		}
		b.WriteString(l + "\n")
		n++
	}
	fmt.Fprintf(&b, "# prova: %d of the %d lines of this daemon run read: its start, VERBS RDMA, [E], ready and shutdown lines\n", n, runLines)
	return b.String()
}

func TestLogReadWholeRun(t *testing.T) {
	lines := run(0, 5, nil)
	p := writeLog(t, "mmfs.log.latest", lines...)
	out, _, rc := runLogCommand(t, p, 1e6, 1e5)
	if want := relevant(lines, len(lines)); rc != 0 || out != want {
		t.Fatalf("rc %d, output:\n%s\nwant:\n%s", rc, out, want)
	}
	s, err := SummarizeLog(out)
	if err != nil || !s.StartFound || s.Skipped != "" || len(s.Peers) != 5 || len(s.ConnectedTo) != 5 || s.Lines != len(lines) {
		t.Fatalf("summary %+v, %v", s, err)
	}
}

// Lines the summary does not read are not sent, and the first line of a
// run without a start always is (so that a file that is no GPFS log is
// still refused by the parser).
func TestLogReadSendsOnlyWhatTheSummaryReads(t *testing.T) {
	lines := []string{stamp(0) + " [N] Connecting to 10.0.0.2 gpfs02 <c0n1>:[0]", stamp(1) + " [I] Connected to 10.0.0.2 gpfs02 <c0n1>:[0]",
		stamp(2) + " [E] Unable to contact any quorum nodes", stamp(3) + " [I] VERBS RDMA started."}
	out, _, _ := runLogCommand(t, writeLog(t, "log", lines...), 1e6, 1e5)
	want := lines[0] + "\n" + lines[2] + "\n" + lines[3] + "\n# prova: 3 of the 4 lines of this daemon run read: its start, VERBS RDMA, [E], ready and shutdown lines\n"
	if out != want {
		t.Fatalf("output:\n%s\nwant:\n%s", out, want)
	}
	s, err := SummarizeLog(out)
	if err != nil || s.StartFound || s.Lines != 4 || len(s.Errors) != 1 || !s.VerbsStarted {
		t.Fatalf("summary %+v, %v", s, err)
	}
	out, _, _ = runLogCommand(t, writeLog(t, "passwd", "root:x:0:0:root:/root:/bin/bash", "daemon:x:1:1::/usr/sbin:/usr/sbin/nologin"), 1e6, 1e5)
	var pe *parse.Error
	if _, err := SummarizeLog(out); !errors.As(err, &pe) || !strings.Contains(pe.Reason, "not an mmfs.log") {
		t.Fatalf("a file that is no GPFS log: %v\n%s", err, out)
	}
}

// A file holding an earlier run too (GPFS starts a new file per run; a
// log copied together, or an older release, may not): the read begins at
// the last start and says so.
func TestLogReadFromLastStart(t *testing.T) {
	first, second := run(0, 3, map[int]bool{2: true}), run(1000, 4, nil)
	p := writeLog(t, "mmfs.log.latest", append(append([]string{}, first...), second...)...)
	out, _, _ := runLogCommand(t, p, 1e6, 1e5)
	want := fmt.Sprintf("# prova: lines 1-%d of %d not read: before the last daemon start\n", len(first), len(first)+len(second)) +
		relevant(second, len(second))
	if out != want {
		t.Fatalf("output:\n%s\nwant:\n%s", out, want)
	}
	s, err := SummarizeLog(out)
	if err != nil || !s.StartFound || len(s.Closed) != 0 || len(s.Peers) != 4 || s.Skipped != "" || s.Lines != len(second) {
		t.Fatalf("summary %+v, %v", s, err)
	}
}

// runmmfs starting, then mmfsd initializing, is one run; mmfsd
// initializing alone (the daemon restarted by runmmfs) is a new one.
func TestLogReadRunBoundaries(t *testing.T) {
	lines := append(run(0, 2, nil), stamp(500)+" [N] mmfsd ready", stamp(501)+" [I] mmfsd initializing. {Version: 5.1.9.0} ...",
		stamp(502)+" [I] VERBS RDMA connected to 10.0.0.9 (gpfs09) on mlx5_0 port 1 fabnum 0 index 1 cookie 1")
	p := writeLog(t, "log", lines...)
	out, _, _ := runLogCommand(t, p, 1e6, 1e5)
	if !strings.HasPrefix(out, fmt.Sprintf("# prova: lines 1-%d of %d not read", len(lines)-2, len(lines))) {
		t.Fatalf("output:\n%s", out)
	}
	s, err := SummarizeLog(out)
	if err != nil || len(s.Peers) != 1 || s.Peers[0].Name != "gpfs09" || s.Lines != 2 {
		t.Fatalf("summary %+v, %v", s, err)
	}
}

// A run longer than the bounds: its start and its end, the lines between
// named; the witness's peers are those logged after the skip.
func TestLogReadLongRun(t *testing.T) {
	lines := run(0, 40, map[int]bool{3: true})
	// Peer 3 closed early (in the head) and 39 at the end; 2 reconnects.
	lines = append(lines, stamp(900)+" [E] VERBS RDMA closed connection to 10.0.0.39 (gpfs39) on mlx5_0 port 1 fabnum 0 index 1 cookie 1 error 233",
		stamp(901)+" [I] VERBS RDMA connected to 10.0.0.2 (gpfs02) on mlx5_0 port 1 fabnum 0 index 1 cookie 1")
	// The bounds: the first 10 lines sent (the start, initializing,
	// started and 7 peers) and the last 5.
	var sent []string
	for _, l := range lines {
		if !strings.HasPrefix(l, "Removing old") {
			sent = append(sent, l)
		}
	}
	size := func(ls []string) int {
		n := 0
		for _, l := range ls {
			n += len(l) + 1
		}
		return n
	}
	head, tail := size(sent[:10]), size(sent[len(sent)-5:])
	for _, ring := range []int{5, 6, 100} { // the ring holds at least what the tail bound keeps
		p := writeLog(t, "mmfs.log.latest", lines...)
		out, _, _ := runLogCommandN(t, p, head, tail, ring)
		n := len(lines)
		want := strings.Join(sent[:10], "\n") + "\n" +
			fmt.Sprintf("# prova: lines 12-%d of %d not read: the middle of this daemon run\n", n-5, n) +
			strings.Join(sent[len(sent)-5:], "\n") + "\n" +
			fmt.Sprintf("# prova: 15 of the %d lines of this daemon run read: its start, VERBS RDMA, [E], ready and shutdown lines\n", n)
		if out != want {
			t.Fatalf("ring %d: output:\n%s\nwant:\n%s", ring, out, want)
		}
		s, err := SummarizeLog(out)
		if err != nil {
			t.Fatal(err)
		}
		if !s.StartFound || s.Skipped != fmt.Sprintf("lines 12-%d of %d not read: the middle of this daemon run", n-5, n) || s.Lines != n {
			t.Fatalf("summary %+v", s)
		}
		var peers []string
		for _, p := range s.Peers {
			peers = append(peers, fmt.Sprintf("%s:%s", p.Name, p.LastEvent))
		}
		// Only the peers with a line after the skip; gpfs03's close (before it)
		// is among the closed all the same.
		if got := strings.Join(peers, " "); got != "gpfs38:verbs_connected gpfs39:verbs_closed gpfs40:verbs_connected gpfs02:verbs_connected" {
			t.Errorf("peers after the skip: %s", got)
		}
		if strings.Join(s.Closed, " ") != "gpfs03 gpfs39" {
			t.Errorf("closed %v", s.Closed)
		}
	}
}

// The bounded read fits what ReadLog keeps of the output.
func TestLogReadFitsItsCapture(t *testing.T) {
	if LogHeadBytes+LogTailBytes+3*200 > logCaptureLimit {
		t.Fatalf("head %d + tail %d + the lines prova adds > capture %d", LogHeadBytes, LogTailBytes, logCaptureLimit)
	}
	if !strings.Contains(LogCommand("/var/adm/ras/mmfs.log.latest"), fmt.Sprintf("-v h=%d -v t=%d -v n=%d -- ", LogHeadBytes, LogTailBytes, logTailLines)) {
		t.Fatal(LogCommand("/var/adm/ras/mmfs.log.latest"))
	}
}

func TestLogReadEmptyMissingAndOddPaths(t *testing.T) {
	p := writeLog(t, "empty")
	if out, _, rc := runLogCommand(t, p, 10, 5); rc != 0 || out != "" {
		t.Fatalf("empty log: rc %d %q", rc, out)
	}
	_, stderr, rc := runLogCommand(t, filepath.Join(t.TempDir(), "missing"), 10, 5)
	if rc == 0 || !strings.Contains(stderr, "No such file") {
		t.Fatalf("missing log: rc %d, stderr %q (ReadLog reads \"No such file\" as no log)", rc, stderr)
	}
	// A relative path that looks like an awk assignment or an option.
	for _, name := range []string{"a=b", "-v"} {
		p := writeLog(t, name, run(0, 1, nil)...)
		cmd := logCommand(name, 1000, 500, 10)
		if !strings.HasSuffix(cmd, " ./"+name) && !strings.HasSuffix(cmd, " './"+name+"'") {
			t.Fatalf("command %s", cmd)
		}
		c := exec.Command("sh", "-c", cmd)
		c.Dir = filepath.Dir(p)
		out, err := c.Output()
		if err != nil || !strings.Contains(string(out), "runmmfs starting") {
			t.Fatalf("%s: %v %q", name, err, out)
		}
	}
}

// A parse error after a skip names the line of the text read.
func TestSummarizeLogErrorLine(t *testing.T) {
	text := stamp(0) + " runmmfs starting\n# prova: lines 2-9 of 12 not read: the middle of this daemon run\n" +
		stamp(1) + " [I] ok\n2026-13-01_10:00:00.000+0000: [I] bad month\n"
	_, err := SummarizeLog(text)
	var pe *parse.Error
	if !errors.As(err, &pe) || pe.Line != 4 {
		t.Fatalf("error %v (line %d), want line 4", err, pe.Line)
	}
}
