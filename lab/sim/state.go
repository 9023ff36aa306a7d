package sim

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// NodeState is the path of a per-node state file.
func (e *Env) NodeState(name string) string {
	return filepath.Join(e.NodeDir(), "state", name+".json")
}

// ClusterState is the path of a cluster-wide state file (shared by all
// nodes, like GPFS's configuration).
func (e *Env) ClusterState(name string) string {
	return filepath.Join(e.Dir, "state", name+".json")
}

// Read decodes the JSON state at path into v under a shared lock. It
// reports false, with v untouched, when the file does not exist yet.
func (e *Env) Read(path string, v any) (bool, error) {
	unlock, err := lock(path, syscall.LOCK_SH)
	if err != nil {
		return false, err
	}
	defer unlock()
	return readJSON(path, v)
}

// Update reads the state at path into v, calls fn, and writes v back when
// fn reports a change, all under an exclusive lock; a write is recorded for
// the audit log. v keeps its value when the file does not exist yet.
func (e *Env) Update(path string, v any, fn func() (changed bool, err error)) error {
	f, unlock, err := lockFile(path, syscall.LOCK_EX)
	if err != nil {
		return err
	}
	defer unlock()
	if _, err := readJSON(path, v); err != nil {
		return err
	}
	changed, err := fn()
	if err != nil || !changed {
		return err
	}
	_, err = e.write(path, f, v)
	return err
}

// MarkChanged records a state change made without Update (for example a
// line appended to a node's log file under Root).
func (e *Env) MarkChanged(what string) error { return e.mark("write " + what) }

func readJSON(path string, v any) (bool, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("read state: %w", err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		return false, fmt.Errorf("read state %s: %w", filepath.Base(path), err)
	}
	return true, nil
}

func lock(path string, how int) (func(), error) {
	_, unlock, err := lockFile(path, how)
	return unlock, err
}

// lockFile takes the lock of path's state; the lock file also holds the
// state's version (memo.go).
func lockFile(path string, how int) (*os.File, func(), error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, nil, fmt.Errorf("state dir: %w", err)
	}
	f, err := os.OpenFile(path+".lock", os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, nil, fmt.Errorf("lock state: %w", err)
	}
	if err := syscall.Flock(int(f.Fd()), how); err != nil {
		f.Close()
		return nil, nil, fmt.Errorf("lock state: %w", err)
	}
	return f, func() { syscall.Flock(int(f.Fd()), syscall.LOCK_UN); f.Close() }, nil
}

// MarkPath is where the tools run by one SSH command record what they did.
func MarkPath(dir, node, cmdID string) string {
	return filepath.Join(dir, "nodes", node, "run", cmdID)
}

func (e *Env) mark(line string) error {
	if e.CmdID == "" {
		return nil
	}
	p := MarkPath(e.Dir, e.Node, e.CmdID)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return fmt.Errorf("record audit mark: %w", err)
	}
	f, err := os.OpenFile(p, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return fmt.Errorf("record audit mark: %w", err)
	}
	defer f.Close()
	_, err = f.WriteString(line + "\n")
	return err
}

// ReadMarks returns the tools one command ran and the state it wrote, and
// removes the record.
func ReadMarks(dir, node, cmdID string) (tools, writes []string, err error) {
	p := MarkPath(dir, node, cmdID)
	f, err := os.Open(p)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, err
	}
	defer os.Remove(p)
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		kind, arg, _ := strings.Cut(sc.Text(), " ")
		switch kind {
		case "tool":
			tools = append(tools, arg)
		case "write":
			writes = append(writes, arg)
		}
	}
	return tools, writes, sc.Err()
}
