package local

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"time"

	"github.com/provadev/prova/engine/module"
)

// Host runs commands on this machine.
type Host struct {
	HostName  string        // Name(); "localhost" when empty
	Env       []string      // command environment; nil inherits this process's
	Dir       string        // working directory; "" is this process's
	KillGrace time.Duration // between SIGTERM and SIGKILL on cancel; default 2 s
}

var _ module.Host = (*Host)(nil)

// New returns a Host named name.
func New(name string) *Host { return &Host{HostName: name} }

// Name returns HostName, or "localhost".
func (h *Host) Name() string {
	if h.HostName == "" {
		return "localhost"
	}
	return h.HostName
}

// Run runs cmd with /bin/sh -c. A command killed by signal N returns
// 128+N. When ctx ends first, Run returns -1 and an error wrapping the
// context's cause, after the process group has been stopped.
func (h *Host) Run(ctx context.Context, cmd string, stdin io.Reader, stdout, stderr io.Writer) (int, error) {
	grace := h.KillGrace
	if grace <= 0 {
		grace = 2 * time.Second
	}
	c := exec.CommandContext(ctx, "/bin/sh", "-c", cmd)
	c.Stdin, c.Stdout, c.Stderr = stdin, stdout, stderr
	c.Env, c.Dir = h.Env, h.Dir
	c.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	c.Cancel = func() error { return syscall.Kill(-c.Process.Pid, syscall.SIGTERM) }
	c.WaitDelay = grace
	err := c.Run()
	if c.Process != nil {
		// whatever happened to the shell, leave no process of its group.
		syscall.Kill(-c.Process.Pid, syscall.SIGKILL)
	}
	if ctx.Err() != nil {
		return -1, fmt.Errorf("%q on %s: %w", cmd, h.Name(), context.Cause(ctx))
	}
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			return 128 + int(ws.Signal()), nil
		}
		return ee.ExitCode(), nil
	}
	if err != nil {
		return -1, fmt.Errorf("run %q on %s: %w", cmd, h.Name(), err)
	}
	return 0, nil
}

// Put writes r to path with mode through a temporary file renamed over
// path.
func (h *Host) Put(ctx context.Context, path string, r io.Reader, mode fs.FileMode) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".prova-*")
	if err != nil {
		return fmt.Errorf("put %s: %w", path, err)
	}
	tmp := f.Name()
	_, err = io.Copy(f, ctxReader{ctx, r})
	if err == nil {
		err = f.Chmod(mode)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
		return fmt.Errorf("put %s: %w", path, err)
	}
	return nil
}

// Get copies the file at path into w.
func (h *Host) Get(ctx context.Context, path string, w io.Writer) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("get %s: %w", path, err)
	}
	defer f.Close()
	if _, err := io.Copy(w, ctxReader{ctx, f}); err != nil {
		return fmt.Errorf("get %s: %w", path, err)
	}
	return nil
}

// ctxReader stops a copy when ctx ends.
type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

func (c ctxReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.r.Read(p)
}
