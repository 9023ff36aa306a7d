package benchfanout

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"time"
)

// Usage is what one run of a tool cost.
type Usage struct {
	Wall time.Duration
	// User and Sys are the CPU times of the child and of every descendant
	// that was reaped before it exited.
	User, Sys time.Duration
	// VolCS and InvolCS are the voluntary and involuntary context
	// switches of the same processes (ru_nvcsw, ru_nivcsw): a thread that
	// blocks (a futex wait, a read with nothing to read) switches
	// voluntarily, one the scheduler preempts involuntarily.
	VolCS, InvolCS int64
	// MaxRSS is the peak resident set of the largest single process of
	// the tree, in bytes (ru_maxrss; see ReadReapUsage for why the tools
	// are measured through reap).
	MaxRSS int64
	// TreePSS is the largest sum of proportional set sizes over the whole
	// process tree seen by the sampler, in bytes; 0 when not sampled.
	TreePSS int64
	// Split is the largest process's resident set split into anonymous
	// and file-backed memory at its largest sample, for a tool measured
	// without the tree sampler (the floor and prova); zero otherwise.
	Split RSSSplit
}

// CPU is user plus system time.
func (u Usage) CPU() time.Duration { return u.User + u.Sys }

// SampleEvery is how often Measure samples the process tree's memory.
const SampleEvery = 100 * time.Millisecond

// Measure starts cmd, waits for it and returns its usage. Its stdout and
// stderr, unless already set, are kept and the last lines quoted when the
// command fails. When sample is true the process tree's PSS is sampled
// every SampleEvery while it runs.
func Measure(ctx context.Context, cmd *exec.Cmd, sample bool) (Usage, error) {
	var out tail
	if cmd.Stdout == nil {
		cmd.Stdout = &out
	}
	if cmd.Stderr == nil {
		cmd.Stderr = &out
	}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return Usage{}, fmt.Errorf("start %s: %w", cmd.Path, err)
	}
	stop := make(chan struct{})
	peak := make(chan int64, 1)
	type splitAt struct {
		s  RSSSplit
		at time.Duration
	}
	split := make(chan splitAt, 1)
	if sample {
		go func() { peak <- samplePeak(cmd.Process.Pid, stop) }()
		split <- splitAt{}
	} else {
		peak <- 0
		go func() {
			s, at := sampleSplit(cmd.Process.Pid, start, stop)
			split <- splitAt{s, at}
		}()
	}
	werr := cmd.Wait()
	wall := time.Since(start)
	close(stop)
	u := Usage{Wall: wall, TreePSS: <-peak}
	if sa := <-split; sa.s.Samples > 0 {
		u.Split = sa.s
		u.Split.At = sa.at.Seconds() / wall.Seconds()
	}
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		u.User = time.Duration(ru.Utime.Nano())
		u.Sys = time.Duration(ru.Stime.Nano())
		u.MaxRSS = ru.Maxrss * 1024 // KiB on Linux
		u.VolCS, u.InvolCS = ru.Nvcsw, ru.Nivcsw
	}
	if werr != nil {
		if err := ctx.Err(); err != nil {
			return u, fmt.Errorf("%s: %w", cmd.Path, err)
		}
		return u, fmt.Errorf("%s failed: %w%s", cmd.Path, werr, out.quote())
	}
	return u, nil
}

// samplePeak returns the largest tree PSS seen until stop is closed.
func samplePeak(pid int, stop <-chan struct{}) int64 {
	t := time.NewTicker(SampleEvery)
	defer t.Stop()
	var peak int64
	for {
		if p := TreePSS(pid); p > peak {
			peak = p
		}
		select {
		case <-stop:
			return peak
		case <-t.C:
		}
	}
}

// tail keeps the last 4 KiB written to it.
type tail struct{ b []byte }

const tailMax = 4096

func (t *tail) Write(p []byte) (int, error) {
	t.b = append(t.b, p...)
	if len(t.b) > tailMax {
		t.b = append(t.b[:0], t.b[len(t.b)-tailMax:]...)
	}
	return len(p), nil
}

func (t *tail) quote() string {
	s := strings.TrimSpace(string(bytes.ToValidUTF8(t.b, nil)))
	if s == "" {
		return ""
	}
	lines := strings.Split(s, "\n")
	if len(lines) > 15 {
		lines = lines[len(lines)-15:]
	}
	return "; last output:\n  " + strings.Join(lines, "\n  ")
}

// errNoTool marks a tool that is not installed.
var errNoTool = errors.New("not installed")

// ReadReapUsage replaces u's CPU times, context switches and peak RSS with
// those reap wrote to path (reap -usage): the command's process tree
// without reap itself.
// The peak RSS must come from there: an exec'd process's ru_maxrss starts
// at the peak of the process it was forked from, so a tool started
// straight from the benchmark reports at least the benchmark's own peak
// (20-25 MiB; the floor's real peak is about 8).
func ReadReapUsage(u Usage, path string) (Usage, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return u, fmt.Errorf("reap's usage: %w", err)
	}
	var user, sys, rssKiB, vol, invol int64
	if n, err := fmt.Sscanf(string(b), "%d %d %d %d %d\n", &user, &sys, &rssKiB, &vol, &invol); err != nil || n != 5 {
		return u, fmt.Errorf("reap's usage %s: %q is not five numbers", path, b)
	}
	u.User, u.Sys, u.MaxRSS = time.Duration(user), time.Duration(sys), rssKiB*1024
	u.VolCS, u.InvolCS = vol, invol
	return u, nil
}
