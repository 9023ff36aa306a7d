package benchfanout

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

func buildReap(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "reap")
	if err := GoBuild(t.Context(), bin, reapPkg); err != nil {
		t.Fatal(err)
	}
	return bin
}

func TestReap(t *testing.T) {
	reap := buildReap(t)
	dir := t.TempDir()
	script := filepath.Join(dir, "busy.sh")
	if err := os.WriteFile(script, []byte(busyScript), 0o600); err != nil {
		t.Fatal(err)
	}

	t.Run("counts the CPU of orphans", func(t *testing.T) {
		stat := filepath.Join(t.TempDir(), "stat")
		// The busy shell is orphaned at once (as a ControlPersist master
		// is): only a subreaper can collect its CPU time.
		cmd := exec.Command(reap, "-linger", "1m", "--", "sh", "-c", `sh "$1" "$2" & exit 0`, "sh", script, stat)
		u, err := Measure(context.Background(), cmd, false)
		if err != nil {
			t.Fatal(err)
		}
		orphan := ticksCPU(t, stat) // written before the orphan exited, so reap waited for it
		if orphan == 0 {
			t.Skip("the busy loop used less than one clock tick")
		}
		if u.CPU() < orphan {
			t.Errorf("measured CPU %v, less than the orphan's own %v", u.CPU(), orphan)
		}
	})

	t.Run("reports the command's own peak RSS, not the benchmark's", func(t *testing.T) {
		// Make this process's peak resident set large: a command started
		// straight from it reports at least that as its ru_maxrss.
		big := make([]byte, 128<<20)
		for i := range big {
			if i%4096 == 0 {
				big[i] = 1
			}
		}
		usage := filepath.Join(t.TempDir(), "usage")
		u, err := Measure(context.Background(), exec.Command(reap, "-linger", "0s", "-usage", usage, "--", "sh", "-c", "exit 0"), false)
		if err != nil {
			t.Fatal(err)
		}
		direct := u.MaxRSS // reap's own, which inherited this process's peak
		u, err = ReadReapUsage(u, usage)
		if err != nil {
			t.Fatal(err)
		}
		runtime.KeepAlive(big)
		if u.VolCS <= 0 {
			t.Errorf("sh through reap -usage: %d voluntary context switches, want some (it waits for its exit)", u.VolCS)
		}
		t.Logf("sh through reap -usage: %.1f MiB; reap's own ru_maxrss: %.1f MiB", float64(u.MaxRSS)/(1<<20), float64(direct)/(1<<20))
		if u.MaxRSS <= 0 || u.MaxRSS >= 64<<20 {
			t.Errorf("sh's peak RSS through reap -usage: %d bytes, want above 0 and far below this process's 128 MiB (reap's own figure: %d)", u.MaxRSS, direct)
		}
	})

	t.Run("ends orphans after the linger time", func(t *testing.T) {
		pidFile := filepath.Join(t.TempDir(), "pid")
		// A daemon that would outlive the run by far; -linger 0s ends it.
		cmd := exec.Command(reap, "-linger", "0s", "--", "sh", "-c", `sleep 600 & echo $! > "$1"`, "sh", pidFile)
		if _, err := Measure(context.Background(), cmd, false); err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(pidFile)
		if err != nil {
			t.Fatal(err)
		}
		pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
		if err != nil {
			t.Fatal(err)
		}
		if err := syscall.Kill(pid, 0); !errors.Is(err, syscall.ESRCH) {
			t.Errorf("orphan %d still exists after reap returned (kill 0: %v)", pid, err)
		}
	})

	t.Run("exits with the command's status", func(t *testing.T) {
		_, err := Measure(context.Background(), exec.Command(reap, "--", "sh", "-c", "exit 7"), false)
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != 7 {
			t.Fatalf("err = %v, want exit status 7", err)
		}
	})

	t.Run("usage error", func(t *testing.T) {
		out, err := exec.Command(reap).CombinedOutput()
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != 2 || !strings.Contains(string(out), "usage: reap") {
			t.Fatalf("reap without a command: %v, %q", err, out)
		}
	})
}
