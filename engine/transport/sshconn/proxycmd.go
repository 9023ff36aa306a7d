package sshconn

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// proxyConn is a connection through a ProxyCommand: the SSH protocol is
// written to the command's stdin and read from its stdout, as ssh does.
// Closing it closes stdin and kills the command's process group.
type proxyConn struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	stdout io.ReadCloser
	stderr *tailBuffer
	name   string
	remote string // host:port of the target: known_hosts is checked under it, as ssh does
	once   sync.Once
	closed atomic.Bool
	done   chan struct{}
	err    error
}

// expandProxyCommand expands the tokens ssh expands in a ProxyCommand.
func expandProxyCommand(cmd string, t Target, alias string) string {
	return tokens{'h': t.Address, 'p': strconv.Itoa(t.Port), 'r': t.User, 'n': alias}.expand(cmd)
}

// dialProxyCommand starts t.ProxyCommand. The command runs until the
// connection is closed; ctx only bounds the start.
func dialProxyCommand(ctx context.Context, t Target, env []string) (net.Conn, error) {
	if t.ProxyCommand == "-" {
		return nil, fmt.Errorf("ProxyCommand - (an already connected stdin/stdout) is not supported")
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	line := expandProxyCommand(t.ProxyCommand, t, t.Name)
	// "exec", as ssh does, so that the shell is replaced by the command
	// (and a command written as "VAR=x cmd" fails as it does with ssh)
	c := exec.Command("/bin/sh", "-c", "exec "+line)
	c.Env = env
	c.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	// Pipes of our own: exec's StdinPipe/StdoutPipe would be closed by
	// Wait while the connection still reads them.
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		return nil, err
	}
	c.Stdin, c.Stdout = inR, outW
	tail := &tailBuffer{max: 2048}
	c.Stderr = tail
	err = c.Start()
	inR.Close() // the child's ends
	outW.Close()
	if err != nil {
		inW.Close()
		outR.Close()
		return nil, fmt.Errorf("ProxyCommand %q: %w", line, err)
	}
	pc := &proxyConn{cmd: c, stdin: inW, stdout: outR, stderr: tail, name: line, remote: hostPort(t.Address, t.Port), done: make(chan struct{})}
	go func() {
		pc.err = c.Wait()
		close(pc.done)
	}()
	return pc, nil
}

func (c *proxyConn) Read(b []byte) (int, error) {
	n, err := c.stdout.Read(b)
	if err == io.EOF {
		// The command closed its stdout: it is ending (or Close kills it);
		// its exit status and stderr explain why.
		<-c.done
		if msg := c.why(); msg != "" {
			return n, fmt.Errorf("ProxyCommand %q closed the connection: %s", c.name, msg)
		}
	}
	return n, err
}

// why describes how the command ended, with the end of its stderr.
func (c *proxyConn) why() string {
	var parts []string
	select {
	case <-c.done:
		if c.err != nil && !c.closed.Load() {
			parts = append(parts, c.err.Error())
		}
	default:
	}
	if s := strings.TrimSpace(c.stderr.String()); s != "" {
		parts = append(parts, "stderr: "+s)
	}
	return strings.Join(parts, "; ")
}

func (c *proxyConn) Write(b []byte) (int, error) {
	n, err := c.stdin.Write(b)
	if err != nil && !c.closed.Load() {
		<-c.done // the command is gone or going: say why
		if msg := c.why(); msg != "" {
			return n, fmt.Errorf("ProxyCommand %q: %s", c.name, msg)
		}
	}
	return n, err
}

// Close closes stdin and kills the command and its children.
func (c *proxyConn) Close() error {
	c.once.Do(func() {
		c.closed.Store(true)
		c.stdin.Close()
		if c.cmd.Process != nil {
			_ = syscall.Kill(-c.cmd.Process.Pid, syscall.SIGKILL)
		}
		<-c.done
		c.stdout.Close()
	})
	return nil
}

// The remote address is the target's host:port (there is no IP address
// to check against known_hosts behind a proxy).
func (c *proxyConn) LocalAddr() net.Addr  { return fakeAddr("127.0.0.1:0") }
func (c *proxyConn) RemoteAddr() net.Addr { return fakeAddr(c.remote) }

// Deadlines are not supported on pipes to a process; the handshake
// timeout closes the connection instead (see dialVia).
func (c *proxyConn) SetDeadline(time.Time) error      { return nil }
func (c *proxyConn) SetReadDeadline(time.Time) error  { return nil }
func (c *proxyConn) SetWriteDeadline(time.Time) error { return nil }

// tailBuffer keeps the last max bytes written to it.
type tailBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
	max int
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf.Write(p)
	if over := t.buf.Len() - t.max; over > 0 {
		t.buf.Next(over)
	}
	return len(p), nil
}

func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.buf.String()
}
