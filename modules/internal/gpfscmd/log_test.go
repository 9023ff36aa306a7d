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
	t.Helper()
	if _, err := exec.LookPath("awk"); err != nil {
		t.Fatalf("awk: %v (the GPFS log is read with awk)", err)
	}
	cmd := exec.Command("sh", "-c", logCommand(path, head, tail))
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

func TestLogReadWholeRun(t *testing.T) {
	lines := run(0, 5, nil)
	p := writeLog(t, "mmfs.log.latest", lines...)
	out, _, rc := runLogCommand(t, p, 100, 100)
	if rc != 0 || out != strings.Join(lines, "\n")+"\n" {
		t.Fatalf("rc %d, output:\n%s", rc, out)
	}
	s, err := SummarizeLog(out)
	if err != nil || !s.StartFound || s.Skipped != "" || len(s.Peers) != 5 || len(s.ConnectedTo) != 5 || s.Lines != len(lines) {
		t.Fatalf("summary %+v, %v", s, err)
	}
}

// A file holding an earlier run too (GPFS starts a new file per run; a
// log copied together, or an older release, may not): the read begins at
// the last start and says so.
func TestLogReadFromLastStart(t *testing.T) {
	first, second := run(0, 3, map[int]bool{2: true}), run(1000, 4, nil)
	p := writeLog(t, "mmfs.log.latest", append(append([]string{}, first...), second...)...)
	out, _, _ := runLogCommand(t, p, 100, 100)
	want := fmt.Sprintf("# prova: lines 1-%d of %d not read: before the last daemon start\n", len(first), len(first)+len(second)) +
		strings.Join(second, "\n") + "\n"
	if out != want {
		t.Fatalf("output:\n%s\nwant:\n%s", out, want)
	}
	s, err := SummarizeLog(out)
	if err != nil || !s.StartFound || len(s.Closed) != 0 || len(s.Peers) != 4 || s.Skipped != "" {
		t.Fatalf("summary %+v, %v", s, err)
	}
}

// runmmfs starting, then mmfsd initializing, is one run; mmfsd
// initializing alone (the daemon restarted by runmmfs) is a new one.
func TestLogReadRunBoundaries(t *testing.T) {
	lines := append(run(0, 2, nil), stamp(500)+" [N] mmfsd ready", stamp(501)+" [I] mmfsd initializing. {Version: 5.1.9.0} ...",
		stamp(502)+" [I] VERBS RDMA connected to 10.0.0.9 (gpfs09) on mlx5_0 port 1 fabnum 0 index 1 cookie 1")
	p := writeLog(t, "log", lines...)
	out, _, _ := runLogCommand(t, p, 100, 100)
	if !strings.HasPrefix(out, fmt.Sprintf("# prova: lines 1-%d of %d not read", len(lines)-2, len(lines))) {
		t.Fatalf("output:\n%s", out)
	}
	s, err := SummarizeLog(out)
	if err != nil || len(s.Peers) != 1 || s.Peers[0].Name != "gpfs09" || s.Lines != 2 {
		t.Fatalf("summary %+v, %v", s, err)
	}
}

// A run longer than head+tail lines: its start and its end, the lines
// between named; the witness's peers are those logged after the skip.
func TestLogReadLongRun(t *testing.T) {
	lines := run(0, 40, map[int]bool{3: true})
	// Peer 3 closed early (in the head) and 39 at the end; 2 reconnects.
	lines = append(lines, stamp(900)+" [E] VERBS RDMA closed connection to 10.0.0.39 (gpfs39) on mlx5_0 port 1 fabnum 0 index 1 cookie 1 error 233",
		stamp(901)+" [I] VERBS RDMA connected to 10.0.0.2 (gpfs02) on mlx5_0 port 1 fabnum 0 index 1 cookie 1")
	p := writeLog(t, "mmfs.log.latest", lines...)
	out, _, _ := runLogCommand(t, p, 10, 5)
	n := len(lines)
	want := strings.Join(lines[:10], "\n") + "\n" +
		fmt.Sprintf("# prova: lines 11-%d of %d not read: the middle of this daemon run\n", n-5, n) +
		strings.Join(lines[n-5:], "\n") + "\n"
	if out != want {
		t.Fatalf("output:\n%s\nwant:\n%s", out, want)
	}
	s, err := SummarizeLog(out)
	if err != nil {
		t.Fatal(err)
	}
	if !s.StartFound || s.Skipped != fmt.Sprintf("lines 11-%d of %d not read: the middle of this daemon run", n-5, n) || s.Lines != 15 {
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
		cmd := logCommand(name, 10, 5)
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
