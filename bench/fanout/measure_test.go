package benchfanout

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// busyScript spins for a fixed number of iterations, then writes its own
// /proc/PID/stat to $1: the CPU it used, in clock ticks.
const busyScript = `i=0; while [ $i -lt 100000 ]; do i=$((i+1)); done; cat /proc/$$/stat > "$1"`

// ticksCPU reads utime+stime from a /proc/PID/stat file (100 Hz ticks).
func ticksCPU(t *testing.T, path string) time.Duration {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+2:]) // fields from 3 on
	ut, err1 := strconv.Atoi(f[11])
	st, err2 := strconv.Atoi(f[12])
	if err1 != nil || err2 != nil {
		t.Fatalf("bad stat line %q", s)
	}
	return time.Duration(ut+st) * 10 * time.Millisecond
}

func TestMeasureCountsWaitedForChildren(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "busy.sh")
	if err := os.WriteFile(script, []byte(busyScript), 0o600); err != nil {
		t.Fatal(err)
	}
	stat := filepath.Join(dir, "stat")
	// The shell forks the busy child and waits: the child's CPU must show
	// in the shell's rusage.
	cmd := exec.Command("sh", "-c", `sh "$1" "$2" & wait`, "sh", script, stat)
	u, err := Measure(context.Background(), cmd, false)
	if err != nil {
		t.Fatal(err)
	}
	child := ticksCPU(t, stat)
	if child == 0 {
		t.Skip("the busy loop used less than one clock tick")
	}
	if u.CPU() < child {
		t.Errorf("measured CPU %v, less than the child's own %v", u.CPU(), child)
	}
	if u.Wall <= 0 || u.MaxRSS <= 0 {
		t.Errorf("usage %+v lacks wall time or RSS", u)
	}
}

func TestMeasureQuotesTheOutputOfAFailedCommand(t *testing.T) {
	cmd := exec.Command("sh", "-c", "echo starting; echo 'no such host' >&2; exit 3")
	_, err := Measure(context.Background(), cmd, false)
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 3 {
		t.Fatalf("err = %v, want exit status 3", err)
	}
	if !strings.Contains(err.Error(), "no such host") || !strings.Contains(err.Error(), "starting") {
		t.Errorf("error does not quote the output: %v", err)
	}
}

func TestTailKeepsTheEnd(t *testing.T) {
	var tl tail
	for i := range 2000 {
		tl.Write([]byte("line " + strconv.Itoa(i) + "\n"))
	}
	if len(tl.b) > tailMax {
		t.Errorf("tail holds %d bytes, more than %d", len(tl.b), tailMax)
	}
	q := tl.quote()
	if !strings.HasSuffix(q, "line 1999") || strings.Count(q, "\n") != 15 {
		t.Errorf("quote = %q, want the last 15 lines", q)
	}
}

func TestTreePSSIncludesChildren(t *testing.T) {
	// cat blocks on its stdin until the pipe is closed: a live child.
	cmd := exec.Command("cat")
	w, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { w.Close(); cmd.Wait() }()
	if !slices.Contains(children(os.Getpid()), cmd.Process.Pid) {
		t.Fatalf("children(self) = %v, lacks cat (%d)", children(os.Getpid()), cmd.Process.Pid)
	}
	catPSS := TreePSS(cmd.Process.Pid)
	if catPSS <= 0 {
		t.Fatalf("TreePSS(cat) = %d", catPSS)
	}
	if self := TreePSS(os.Getpid()); self <= catPSS {
		t.Errorf("TreePSS(self) = %d, not more than cat's %d", self, catPSS)
	}
	if got := TreePSS(1 << 30); got != 0 {
		t.Errorf("TreePSS(no such pid) = %d", got)
	}
}
