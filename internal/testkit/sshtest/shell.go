package sshtest

import (
	"context"
	"errors"
	"io"
	"os/exec"
	"syscall"
	"time"

	"golang.org/x/crypto/ssh"
)

var signals = map[ssh.Signal]syscall.Signal{
	ssh.SIGABRT: syscall.SIGABRT, ssh.SIGALRM: syscall.SIGALRM, ssh.SIGFPE: syscall.SIGFPE,
	ssh.SIGHUP: syscall.SIGHUP, ssh.SIGILL: syscall.SIGILL, ssh.SIGINT: syscall.SIGINT,
	ssh.SIGKILL: syscall.SIGKILL, ssh.SIGPIPE: syscall.SIGPIPE, ssh.SIGQUIT: syscall.SIGQUIT,
	ssh.SIGSEGV: syscall.SIGSEGV, ssh.SIGTERM: syscall.SIGTERM, ssh.SIGUSR1: syscall.SIGUSR1,
	ssh.SIGUSR2: syscall.SIGUSR2,
}

func signalName(n int) string {
	for name, s := range signals {
		if int(s) == n {
			return string(name)
		}
	}
	return "KILL"
}

// ShellHandler runs cmd with /bin/sh -c on this machine in its own process
// group, forwards signals from the client to that group, and kills the
// group when the session ends. A process killed by a signal is reported as
// killed by that signal.
func ShellHandler(ctx context.Context, cmd string, stdin io.Reader, stdout, stderr io.Writer) int {
	c := exec.Command("/bin/sh", "-c", cmd)
	c.Stdin, c.Stdout, c.Stderr = stdin, stdout, stderr
	c.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	c.WaitDelay = 500 * time.Millisecond
	if err := c.Start(); err != nil {
		io.WriteString(stderr, "sshtest: "+err.Error()+"\n")
		return 127
	}
	pgid := c.Process.Pid
	exited := make(chan struct{})
	go func() {
		sigs := Signals(ctx)
		for {
			select {
			case <-exited:
				return
			case <-ctx.Done():
				syscall.Kill(-pgid, syscall.SIGKILL)
				return
			case name := <-sigs:
				if sig, ok := signals[name]; ok {
					syscall.Kill(-pgid, sig)
				}
			}
		}
	}()
	err := c.Wait()
	close(exited)
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			return -int(ws.Signal())
		}
		return ee.ExitCode()
	}
	if err != nil {
		return 255
	}
	return 0
}
