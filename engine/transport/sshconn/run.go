package sshconn

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"time"

	"golang.org/x/crypto/ssh"
)

// signalNumbers maps SSH signal names to Linux numbers, for 128+N statuses.
var signalNumbers = map[string]int{
	"HUP": 1, "INT": 2, "QUIT": 3, "ILL": 4, "TRAP": 5, "ABRT": 6, "BUS": 7, "FPE": 8, "KILL": 9,
	"USR1": 10, "SEGV": 11, "USR2": 12, "PIPE": 13, "ALRM": 14, "TERM": 15,
}

// Run runs cmd through the remote user's shell. It returns the exit
// status; a command killed by a signal returns 128+N as a shell would
// (255 for a signal it cannot name). err is non-nil when the status is
// unknown: an unreachable error (module.IsUnreachable) when the host could
// not be reached or the connection was lost, the context's cause when ctx
// ended first. On cancellation the remote process group receives SIGTERM,
// then SIGKILL after Options.KillGrace, then the session is closed.
func (c *Conn) Run(ctx context.Context, cmd string, stdin io.Reader, stdout, stderr io.Writer) (int, error) {
	cl, err := c.connect(ctx)
	if err != nil {
		return -1, err
	}
	if err := c.acquire(ctx); err != nil {
		return -1, err
	}
	defer c.release()
	s, err := c.newSession(cl)
	if err != nil {
		return -1, err
	}
	defer s.Close()
	s.Stdin, s.Stdout, s.Stderr = stdin, stdout, stderr
	if err := s.Start(cmd); err != nil {
		select {
		case <-c.dead:
			return -1, c.deadErr
		default:
		}
		return -1, fmt.Errorf("start %q on %s: %w", cmd, c.Name(), err)
	}
	done := make(chan error, 1)
	go func() { done <- s.Wait() }()
	select {
	case err = <-done:
	case <-c.dead:
		return -1, c.deadErr
	case <-ctx.Done():
		c.kill(s, done)
		return -1, fmt.Errorf("%q on %s: %w", cmd, c.Name(), context.Cause(ctx))
	}
	return c.status(err)
}

// kill stops a remote command: TERM, grace, KILL, then the session is
// closed by the caller. sshd delivers signals to the command's process
// group.
func (c *Conn) kill(s *ssh.Session, done <-chan error) {
	s.Signal(ssh.SIGTERM)
	t := time.NewTimer(c.pool.opts.KillGrace)
	defer t.Stop()
	select {
	case <-done:
		return
	case <-c.dead:
		return
	case <-t.C:
	}
	s.Signal(ssh.SIGKILL)
	t.Reset(c.pool.opts.KillGrace)
	select {
	case <-done:
	case <-c.dead:
	case <-t.C:
	}
}

func (c *Conn) status(err error) (int, error) {
	if err == nil {
		return 0, nil
	}
	var ee *ssh.ExitError
	if errors.As(err, &ee) {
		if sig := ee.Signal(); sig != "" {
			if n, ok := signalNumbers[sig]; ok {
				return 128 + n, nil
			}
			return 255, nil
		}
		return ee.ExitStatus(), nil
	}
	select {
	case <-c.dead:
		return -1, c.deadErr
	default:
	}
	var missing *ssh.ExitMissingError
	if errors.As(err, &missing) {
		return -1, unreachablef("%s ended the command without an exit status (connection lost?)", c.Name())
	}
	return -1, fmt.Errorf("run on %s: %w", c.Name(), err)
}

func isClosedErr(err error) bool { return errors.Is(err, net.ErrClosed) }
