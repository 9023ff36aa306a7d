// Command reap runs a command as a child subreaper, so that the CPU time of
// processes it leaves behind (OpenSSH ControlPersist masters that fork into
// the background) is counted in reap's own rusage, which is what the
// benchmark harness reads.
//
// Usage:
//
//	reap [-linger DURATION] [-usage FILE] -- COMMAND [ARG...]
//
// reap runs COMMAND with its standard streams, waits for it, then waits up
// to -linger (default 10s) for the orphans that were reparented to it to
// exit; those still running are sent SIGTERM, and SIGKILL 5 s later. It
// exits with COMMAND's status. It is a Linux-only benchmark helper.
//
// With -usage, reap writes to FILE the user and system CPU time (in
// nanoseconds), the peak resident set (in KiB) and the voluntary and
// involuntary context switches of COMMAND and every process it waited
// for, not counting its own: one line, five numbers.
// The peak is why this exists: Linux starts an exec'd process's ru_maxrss
// at the peak of the process it was forked from, so a tool started
// straight from the benchmark (a large Go test binary) could never report
// less than the benchmark's own resident set. reap is small, so what its
// children inherit from it is below any tool measured.
package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// prSetChildSubreaper is PR_SET_CHILD_SUBREAPER from <linux/prctl.h>.
const prSetChildSubreaper = 36

func main() {
	linger := flag.Duration("linger", 10*time.Second, "how long to wait for orphans before SIGTERM")
	usage := flag.String("usage", "", "write the CPU times and peak RSS of the command's process tree to this file")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: reap [-linger DURATION] [-usage FILE] -- COMMAND [ARG...]")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() == 0 {
		flag.Usage()
		os.Exit(2)
	}
	os.Exit(run(flag.Args(), *linger, *usage))
}

func run(argv []string, linger time.Duration, usage string) int {
	if _, _, e := syscall.RawSyscall(syscall.SYS_PRCTL, prSetChildSubreaper, 1, 0); e != 0 {
		fmt.Fprintf(os.Stderr, "reap: prctl(PR_SET_CHILD_SUBREAPER): %v\n", e)
		return 2
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	err := cmd.Run()
	code := 0
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		code = ee.ExitCode()
		if code < 0 {
			code = 1
		}
	case err != nil:
		fmt.Fprintf(os.Stderr, "reap: %v\n", err)
		return 2
	}
	term := time.AfterFunc(linger, func() { signalChildren(syscall.SIGTERM) })
	kill := time.AfterFunc(linger+5*time.Second, func() { signalChildren(syscall.SIGKILL) })
	defer term.Stop()
	defer kill.Stop()
	for {
		var ws syscall.WaitStatus
		_, err := syscall.Wait4(-1, &ws, 0, nil)
		if errors.Is(err, syscall.EINTR) {
			continue
		}
		if err != nil { // ECHILD: nothing left
			break
		}
	}
	if usage != "" {
		if err := writeUsage(usage); err != nil {
			fmt.Fprintf(os.Stderr, "reap: %v\n", err)
			return 2
		}
	}
	return code
}

// writeUsage writes the rusage of every child reap waited for.
func writeUsage(path string) error {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_CHILDREN, &ru); err != nil {
		return fmt.Errorf("getrusage: %w", err)
	}
	line := fmt.Sprintf("%d %d %d %d %d\n", ru.Utime.Nano(), ru.Stime.Nano(), ru.Maxrss, ru.Nvcsw, ru.Nivcsw)
	return os.WriteFile(path, []byte(line), 0o600)
}

// signalChildren sends sig to every current child of this process.
func signalChildren(sig syscall.Signal) {
	files, _ := filepath.Glob("/proc/self/task/*/children")
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		for _, s := range strings.Fields(string(b)) {
			if pid, err := strconv.Atoi(s); err == nil {
				_ = syscall.Kill(pid, sig)
			}
		}
	}
}
