package sshconn

import (
	"context"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"strings"
	"time"

	"github.com/provadev/prova/engine/module"
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
//
// The calling goroutine copies stdout and then waits for the exit status;
// x/crypto/ssh copies stderr, and an empty stdin is a closed pipe rather
// than a goroutine copying nothing, so that a running command costs two
// goroutines (stderr, and the session's own request reader) instead of
// five: at 200 hosts their stacks were a fifth of prova's peak memory.
func (c *Conn) Run(ctx context.Context, cmd string, stdin io.Reader, stdout, stderr io.Writer) (int, error) {
	tag := newTag()
	cl, err := c.connect(ctx)
	if err != nil {
		return -1, err
	}
	s, first, err := c.session(ctx, cl)
	if err != nil {
		return -1, err
	}
	defer c.release()
	w := c.getWatch(cl, tag)
	defer w.put()
	out, startErr, err := c.start(s, w, cmd, tag, stdin, stderr)
	if startErr != nil && first {
		// The connection's first session may have waited long enough for
		// the server to close it (sshd's ChannelTimeout): the command
		// did not start, and starts on a new session, whose failure is
		// the one reported.
		s.Close()
		if s, err = c.newSession(cl); err != nil {
			return -1, err
		}
		out, startErr, err = c.start(s, w, cmd, tag, stdin, stderr)
	}
	defer s.Close()
	if err != nil {
		return -1, err
	}
	if startErr != nil {
		return -1, c.lost(fmt.Errorf("start %q on %s: %w", cmd, c.Name(), startErr))
	}
	if a, ok := ctx.(*module.Attempt); ok {
		// The engine's attempt: the watch watches it, no registration
		// per command (cmdWatch).
		w.arm(a)
		werr := copyOut(w.stdout(stdout), out)
		err = s.Wait()
		if w.disarm(a) {
			return -1, w.waitKill(cmd, w.cause)
		}
		return c.result(cmd, err, werr)
	}
	stop := context.AfterFunc(ctx, w.onCancel)
	werr := copyOut(w.stdout(stdout), out)
	err = s.Wait()
	if !stop() { // ctx ended: the command was (being) killed
		return -1, w.waitKill(cmd, context.Cause(ctx))
	}
	return c.result(cmd, err, werr)
}

// start sets s up for cmd (its stdin is stdin, or a pipe closed at once;
// its stderr goes through w) and starts it, returning its stdout. A pipe
// that cannot be made is err; an exec request that fails is startErr,
// returned as it is: the command did not start.
func (c *Conn) start(s *ssh.Session, w *cmdWatch, cmd string, tag runTag, stdin io.Reader, stderr io.Writer) (out io.Reader, startErr, err error) {
	var noStdin io.Closer
	if stdin == nil {
		if noStdin, err = s.StdinPipe(); err != nil {
			return nil, nil, fmt.Errorf("stdin of %q on %s: %w", cmd, c.Name(), err)
		}
	} else {
		s.Stdin = stdin
	}
	if out, err = s.StdoutPipe(); err != nil {
		return nil, nil, fmt.Errorf("stdout of %q on %s: %w", cmd, c.Name(), err)
	}
	w.s = s
	s.Stderr = w.stderr(stderr)
	// One allocation for the whole line: the tag's bytes are converted
	// in place by the concatenation.
	tb := tag.hex()
	if err := s.Start(TagLine + string(tb[:]) + "\n" + EnvLine + string(tb[:]) + "\n" + cmd); err != nil {
		return nil, err, nil
	}
	if noStdin != nil {
		noStdin.Close() // EOF: the command reads nothing
	}
	return out, nil, nil
}

// waitKill waits for the kill of a command whose context ended (the
// command has ended meanwhile: the kill stops waiting out its grace) and
// returns the error Run returns for it, with cause.
func (w *cmdWatch) waitKill(cmd string, cause error) error {
	w.finished <- struct{}{} // never blocks: one token, drained by put
	<-w.killed
	return fmt.Errorf("%q on %s: %w", cmd, w.c.Name(), cause)
}

// result is what Run returns for a command that ended by itself, with the
// session's wait error err and the stdout writer's werr.
func (c *Conn) result(cmd string, err, werr error) (int, error) {
	if werr != nil {
		return -1, fmt.Errorf("write the output of %q on %s: %w", cmd, c.Name(), werr)
	}
	return c.status(err) // a lost connection: no exit status, c.lost says why
}

// copyOut copies a command's stdout to w (cmdWatch.stdout: the caller's
// writer with its errors marked) until the channel ends, through pooled
// buffers (copyPooled). When w fails it is not written to again, but the
// stream is still drained so that the command is not blocked; the write
// error is returned.
func copyOut(w io.Writer, r io.Reader) error {
	_, err := copyPooled(w, r)
	// copyPooled returns markWrites' error as it is: no errors.As (whose
	// target escapes, an allocation per command).
	if we, ok := err.(*writeError); ok {
		copyPooled(io.Discard, r)
		return we.err
	}
	return nil // a read error: the channel ended; Wait says how
}

// writeError marks an error of the writer copyOut copies to, to tell it
// from the channel's.
type writeError struct{ err error }

func (e *writeError) Error() string { return e.err.Error() }

type markWrites struct{ w io.Writer }

func (m markWrites) Write(p []byte) (int, error) {
	n, err := m.w.Write(p)
	if err == nil && n < len(p) {
		err = io.ErrShortWrite
	}
	if err != nil {
		err = &writeError{err}
	}
	return n, err
}

// TagLine starts the comment line Run puts before every command:
// "# prova-run:<random>\n". The remote shell ignores it, but it shows in
// the shell's command line (/proc/PID/cmdline) while the shell runs.
const TagLine = "# prova-run:"

// EnvLine follows the tag line: "export PROVA_RUN=<random>\n". The
// variable is inherited by everything the command starts and survives
// exec (a shell that execs its last command no longer shows the tag in
// its command line), so /proc/PID/environ finds every process of a
// cancelled command.
const EnvLine = "export PROVA_RUN="

// newTag is 16 random hex digits naming one command run. It only has to
// be unique among the commands running on a host (it is visible there in
// /proc anyway), so it comes from math/rand/v2's generator, seeded by the
// runtime, not from the kernel: crypto/rand's getrandom call per command
// was 4 % of prova's CPU in the 200-host fan-out.
//
// A runTag is kept as its number and written out where it is used, so
// that a command's line is one allocation and a cancelled command's kill
// script makes its own string.
func newTag() runTag { return runTag(rand.Uint64()) }

type runTag uint64

func (t runTag) hex() (h [16]byte) {
	var b [8]byte
	binary.LittleEndian.PutUint64(b[:], uint64(t))
	hex.Encode(h[:], b[:])
	return h
}

func (t runTag) String() string {
	h := t.hex()
	return string(h[:])
}

// killScript signals every process of the command tagged tag: those whose
// environment carries PROVA_RUN=<tag> (the command and everything it
// started, even after exec), and the process group of the shell whose
// command line still shows the tag line. The patterns' brackets keep them
// from matching the script's own processes. It needs Linux /proc and grep.
func killScript(tag, sig string) string {
	env := "PROVA_RUN[=]" + tag
	pat := strings.TrimSuffix(TagLine, ":") + "[:]" + tag
	return "for f in $(grep -las '" + env + "' /proc/[0-9]*/environ); do " +
		"p=${f#/proc/}; p=${p%/environ}; kill -" + sig + " $p 2>/dev/null; done; " +
		"for f in $(grep -las '" + pat + "' /proc/[0-9]*/cmdline); do " +
		"p=${f#/proc/}; p=${p%/cmdline}; kill -" + sig + " -- -$p 2>/dev/null || kill -" + sig + " $p 2>/dev/null; done; true"
}

// kill stops a remote command: TERM, grace, KILL; the caller then closes
// the session. Each signal goes two ways: the SSH "signal" request (sshd
// signals the command's process group, but OpenSSH ignores it for
// sessions it serves without privilege separation, such as root logins)
// and a second session that finds the tagged shell under /proc and
// signals its process group.
func (c *Conn) kill(cl *ssh.Client, s *ssh.Session, tag string, done <-chan struct{}) {
	signal := func(sig ssh.Signal) {
		s.Signal(sig)
		if ks, err := cl.NewSession(); err == nil {
			ks.Run(killScript(tag, string(sig)))
			ks.Close()
		}
	}
	signal(ssh.SIGTERM)
	t := time.NewTimer(c.pool.opts.KillGrace)
	defer t.Stop()
	select {
	case <-done:
		return
	case <-c.dead:
		return
	case <-t.C:
	}
	signal(ssh.SIGKILL)
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
	// no exit status: the channel or the connection went away.
	return -1, c.lost(fmt.Errorf("%s ended the command without an exit status: %w", c.Name(), err))
}

func isClosedErr(err error) bool { return errors.Is(err, net.ErrClosed) }
