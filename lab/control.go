package lab

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// PIDFile is the serve process's pid file inside the lab directory.
const PIDFile = "serve.pid"

func controlAddr(dir string) string {
	h := sha256.Sum256([]byte(dir))
	return "@prova-lab-" + hex.EncodeToString(h[:8]) // abstract socket: no path length limit, no file
}

// Serve runs a lab until ctx ends: it writes the pid file, answers expand
// requests on the lab's control socket, and writes "ready" (or "error: ...")
// and a newline to ready once the nodes listen.
func Serve(ctx context.Context, opts Options, ready io.Writer) error {
	dir, err := filepath.Abs(opts.Dir)
	if err != nil {
		return err
	}
	opts.Dir = dir
	l, err := Start(ctx, opts)
	if err != nil {
		fmt.Fprintf(ready, "error: %v\n", err)
		return err
	}
	defer l.Close()
	ln, err := net.Listen("unix", controlAddr(dir))
	if err != nil {
		fmt.Fprintf(ready, "error: control socket: %v\n", err)
		return fmt.Errorf("control socket: %w", err)
	}
	defer ln.Close()
	go l.control(ln)
	pidPath := filepath.Join(dir, PIDFile)
	if err := writeAtomic(pidPath, strconv.Itoa(os.Getpid())+"\n"); err != nil {
		fmt.Fprintf(ready, "error: %v\n", err)
		return err
	}
	defer os.Remove(pidPath)
	fmt.Fprintln(ready, "ready")
	// A lab whose directory was removed (rm -rf of a demo's temporary
	// directory) can no longer be reached by `lab down`: it stops by itself
	// when its pid file is gone or names another process.
	t := time.NewTicker(orphanCheck)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-t.C:
			if !ownsPIDFile(pidPath) {
				return errors.New("the lab directory or its pid file is gone: stopping")
			}
		}
	}
}

// orphanCheck is how often a running lab checks that its directory is
// still there.
const orphanCheck = 2 * time.Second

// ownsPIDFile reports whether path still holds this process's pid.
func ownsPIDFile(path string) bool {
	b, err := os.ReadFile(path)
	if err != nil {
		return false
	}
	return strings.TrimSpace(string(b)) == strconv.Itoa(os.Getpid())
}

func (l *Lab) control(ln net.Listener) {
	for {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		go func() {
			defer c.Close()
			line, err := bufio.NewReader(c).ReadString('\n')
			if err != nil {
				return
			}
			var n int
			if _, err := fmt.Sscanf(line, "expand %d", &n); err != nil {
				fmt.Fprintf(c, "error: unknown request %q\n", strings.TrimSpace(line))
				return
			}
			if err := l.Expand(n); err != nil {
				fmt.Fprintf(c, "error: %v\n", err)
				return
			}
			fmt.Fprintln(c, "ok")
		}()
	}
}

// Up starts "BINARY lab serve" detached (its own session, output in
// DIR/serve.log) and returns once every node answers.
func Up(ctx context.Context, opts Options, timeout time.Duration) (*Status, error) {
	dir, err := filepath.Abs(opts.Dir)
	if err != nil {
		return nil, err
	}
	if pid, ok := runningPID(dir); ok {
		return nil, fmt.Errorf("a lab is already running in %s (pid %d); run prova lab down first", dir, pid)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("lab dir: %w", err)
	}
	logf, err := os.Create(filepath.Join(dir, "serve.log"))
	if err != nil {
		return nil, fmt.Errorf("lab log: %w", err)
	}
	defer logf.Close()
	pr, pw, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	defer pr.Close()
	args := []string{"lab", "serve", "--dir", dir, "--ready-fd", "3"}
	if opts.Nodes > 0 {
		args = append(args, "--nodes", strconv.Itoa(opts.Nodes))
	}
	if opts.Scenario != "" {
		sc, err := filepath.Abs(opts.Scenario)
		if err != nil {
			return nil, err
		}
		args = append(args, "--scenario", sc)
	}
	cmd := exec.Command(opts.Binary, args...)
	cmd.Stdout, cmd.Stderr = logf, logf
	cmd.ExtraFiles = []*os.File{pw}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := cmd.Start(); err != nil {
		pw.Close()
		return nil, fmt.Errorf("start lab server: %w", err)
	}
	pw.Close()
	exited := make(chan struct{})
	go func() { cmd.Wait(); close(exited) }()
	got := make(chan string, 1)
	go func() {
		line, _ := bufio.NewReader(pr).ReadString('\n')
		got <- strings.TrimSpace(line)
	}()
	var line string
	select {
	case line = <-got:
	case <-time.After(timeout):
		cmd.Process.Kill()
		return nil, fmt.Errorf("lab server did not start within %s (see %s)", timeout, logf.Name())
	case <-ctx.Done():
		cmd.Process.Kill()
		return nil, ctx.Err()
	}
	if line != "ready" {
		<-exited
		msg := strings.TrimPrefix(line, "error: ")
		if msg == "" {
			msg = "lab server exited (see " + logf.Name() + ")"
		}
		return nil, errors.New(msg)
	}
	st, err := ReadStatus(dir)
	if err != nil {
		return nil, err
	}
	if down := st.Unanswered(); len(down) > 0 {
		return st, fmt.Errorf("nodes do not answer: %s", strings.Join(down, ", "))
	}
	return st, nil
}

// ExpandRunning asks the lab serving dir to add n nodes.
func ExpandRunning(ctx context.Context, dir string, n int) error {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return err
	}
	if _, ok := runningPID(dir); !ok {
		return fmt.Errorf("no lab is running in %s", dir)
	}
	var d net.Dialer
	c, err := d.DialContext(ctx, "unix", controlAddr(dir))
	if err != nil {
		return fmt.Errorf("lab control: %w", err)
	}
	defer c.Close()
	if dl, ok := ctx.Deadline(); ok {
		c.SetDeadline(dl)
	}
	fmt.Fprintf(c, "expand %d\n", n)
	line, err := bufio.NewReader(c).ReadString('\n')
	if err != nil {
		return fmt.Errorf("lab control: %w", err)
	}
	if line = strings.TrimSpace(line); line != "ok" {
		return errors.New(strings.TrimPrefix(line, "error: "))
	}
	return nil
}

// Down stops the lab serving dir: exactly the process in its pid file,
// after checking that it is a "lab serve" for this directory. The
// directory's files stay for inspection unless clean is set.
func Down(dir string, clean bool, timeout time.Duration) error {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return err
	}
	pid, ok := runningPID(dir)
	if !ok {
		if clean {
			return removeLabDir(dir)
		}
		return fmt.Errorf("no lab is running in %s", dir)
	}
	if err := syscall.Kill(pid, syscall.SIGTERM); err != nil {
		return fmt.Errorf("stop lab (pid %d): %w", pid, err)
	}
	deadline := time.Now().Add(timeout)
	for alive(pid) {
		if time.Now().After(deadline) {
			return fmt.Errorf("lab (pid %d) did not stop within %s", pid, timeout)
		}
		time.Sleep(20 * time.Millisecond)
	}
	os.Remove(filepath.Join(dir, PIDFile))
	if clean {
		return removeLabDir(dir)
	}
	return nil
}

func removeLabDir(dir string) error {
	if _, err := os.Stat(filepath.Join(dir, "lab.json")); err != nil {
		return fmt.Errorf("refusing to remove %s: not a lab directory", dir)
	}
	return os.RemoveAll(dir)
}

// runningPID returns the pid of the live "lab serve" process of dir.
func runningPID(dir string) (int, bool) {
	b, err := os.ReadFile(filepath.Join(dir, PIDFile))
	if err != nil {
		return 0, false
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil || pid <= 0 || !alive(pid) {
		return 0, false
	}
	cl, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
	if err != nil || !strings.Contains(string(cl), "\x00lab\x00serve\x00") || !strings.Contains(string(cl), "\x00"+dir+"\x00") {
		return 0, false
	}
	return pid, true
}

func alive(pid int) bool {
	if err := syscall.Kill(pid, 0); err != nil {
		return false
	}
	st, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	// A zombie is dead for our purpose.
	i := strings.LastIndexByte(string(st), ')')
	return i < 0 || i+2 >= len(st) || st[i+2] != 'Z'
}

// Status is what "prova lab status" shows.
type Status struct {
	Dir      string
	PID      int // 0 when not running
	Scenario string
	Nodes    []NodeStatus
}

// NodeStatus is one node's state: whether its SSH port accepts.
type NodeStatus struct {
	Name    string
	Port    int
	Groups  []string
	SSHDown bool // by scenario
	Answers bool
}

// ReadStatus reads the lab directory and probes each node's port.
func ReadStatus(dir string) (*Status, error) {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	b, err := os.ReadFile(filepath.Join(dir, "lab.json"))
	if err != nil {
		return nil, fmt.Errorf("no lab in %s: %w", dir, err)
	}
	var m meta
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, fmt.Errorf("lab.json: %w", err)
	}
	st := &Status{Dir: dir, Scenario: m.Scenario}
	st.PID, _ = runningPID(dir)
	for _, n := range m.Nodes {
		ns := NodeStatus{Name: n.Name, Port: n.Port, Groups: n.Groups, SSHDown: n.SSHDown}
		if st.PID != 0 {
			c, err := net.DialTimeout("tcp", fmt.Sprintf("127.0.0.1:%d", n.Port), time.Second)
			if err == nil {
				c.Close()
				ns.Answers = true
			}
		}
		st.Nodes = append(st.Nodes, ns)
	}
	return st, nil
}

// Unanswered lists nodes that should answer but do not.
func (s *Status) Unanswered() []string {
	var out []string
	for _, n := range s.Nodes {
		if !n.SSHDown && !n.Answers {
			out = append(out, n.Name)
		}
	}
	return out
}
