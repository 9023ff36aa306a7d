package lab

import (
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"golang.org/x/crypto/ssh"

	"github.com/provadev/prova/lab/sshserve"
)

// session is one SSH session channel's command: its exec, shell or sftp
// subsystem with the client's environment (lab/sshserve answers the
// channel's requests).
type session struct {
	node *node
	ss   *sshserve.Session
	ch   ssh.Channel // ss.Channel
	env  []string    // ss.Env without what the lab sets
}

// run executes one command, in process when it is a plain call of a
// simulated tool (inproc.go), else through "prova lab nsexec", and applies
// the node's faults.
func (s *session) run(ctx context.Context, command, mode string) {
	n := s.node
	f := n.model.Faults
	id := n.nextID()
	start := time.Now()
	entry := AuditEntry{Time: start, Command: command, Mode: mode, Exit: -1}
	if mode == "sftp" {
		entry.Command = "(sftp)"
	}
	// The client gives up when it closes the channel (ctx ends) or sends
	// a signal.
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go func() {
		select {
		case <-s.ss.Signals: // any signal ends the command
			cancel()
		case <-ctx.Done():
		}
	}()
	if mode == "exec" && matches(f.HangOn, command) {
		<-ctx.Done()
		entry.Fault, entry.Changed, entry.Duration = "hung", ChangedNo, time.Since(start).Seconds()
		n.audit(entry)
		return
	}
	dropApplies := (f.DropAfter > 0 || f.DropOn != "") && mode == "exec" && (f.DropOn == "" || matches(f.DropOn, command))
	if mode == "exec" && !dropApplies {
		if pc, env, ok := s.inProcess(command, id); ok {
			status := s.runInProcess(ctx, pc, env, id)
			s.finish(ctx, &entry, command, mode, id, status, start)
			return
		}
	}
	args := []string{"lab", "nsexec", "--dir", n.lab.dir, "--node", n.model.Name, "--mode", mode, "--"}
	if mode == "exec" {
		args = append(args, command)
	}
	cmd := exec.Command(n.lab.binary, args...)
	cmd.Args[0] = "prova"
	cmd.Env = append(s.baseEnv(id), s.env...)
	cmd.SysProcAttr = nsAttr()
	cmd.Stdout = s.ch
	cmd.Stderr = s.ch.Stderr()
	stdin, err := cmd.StdinPipe()
	if err == nil {
		err = cmd.Start()
	}
	if err != nil {
		io.WriteString(s.ch.Stderr(), "prova lab: "+err.Error()+"\n")
		s.exit(127)
		entry.Exit, entry.Changed = 127, ChangedNo
		n.audit(entry)
		return
	}
	go func() { io.Copy(stdin, s.ch); stdin.Close() }()
	done := make(chan struct{})
	var once sync.Once
	kill := func() { once.Do(func() { syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }) }
	go func() {
		select {
		case <-ctx.Done():
			kill()
		case <-done:
		}
	}()
	var dropped atomic.Bool
	if dropApplies {
		go func() {
			t := time.NewTimer(f.DropAfter)
			defer t.Stop()
			select {
			case <-t.C:
				dropped.Store(true)
				s.ss.Conn.Close() // the TCP connection, not just the channel
				kill()
			case <-done:
			}
		}()
	}
	werr := cmd.Wait()
	close(done)
	if dropped.Load() {
		entry.Fault = "dropped"
	}
	s.finish(ctx, &entry, command, mode, id, exitStatus(werr), start)
}

// finish completes the audit entry of a command that ended with status,
// sends the status unless a fault acted or the client went away, and
// writes the entry.
func (s *session) finish(ctx context.Context, entry *AuditEntry, command, mode, id string, status int, start time.Time) {
	n := s.node
	entry.Duration = time.Since(start).Seconds()
	tools, writes, _ := readMarks(n, id)
	entry.SimTools, entry.StateWrites = tools, writes
	entry.Changed = classify(command, mode, tools, writes, n.lab.table.Names())
	if entry.Fault == "" && ctx.Err() == nil {
		entry.Exit = status
		s.exit(status)
	}
	n.audit(*entry)
}

func (s *session) exit(status int) {
	s.ss.Exit(status)
}

func (s *session) baseEnv(id string) []string {
	n := s.node
	return []string{
		"PATH=" + n.dir + "/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin:/usr/lpp/mmfs/bin",
		"HOME=/root", "USER=root", "LOGNAME=root", "SHELL=/bin/sh",
		"PROVA_LAB_DIR=" + n.lab.dir, "PROVA_LAB_NODE=" + n.model.Name, "PROVA_LAB_CMD=" + id,
	}
}

// nsAttr starts nsexec in new mount and UTS namespaces, inside a new user
// namespace when not root, in its own process group.
func nsAttr() *syscall.SysProcAttr {
	a := &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	if os.Geteuid() == 0 {
		a.Unshareflags = syscall.CLONE_NEWNS | syscall.CLONE_NEWUTS
		return a
	}
	a.Cloneflags = syscall.CLONE_NEWUSER | syscall.CLONE_NEWNS | syscall.CLONE_NEWUTS
	a.UidMappings = []syscall.SysProcIDMap{{ContainerID: 0, HostID: os.Geteuid(), Size: 1}}
	a.GidMappings = []syscall.SysProcIDMap{{ContainerID: 0, HostID: os.Getegid(), Size: 1}}
	return a
}

func exitStatus(err error) int {
	if err == nil {
		return 0
	}
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		if st, ok := ee.Sys().(syscall.WaitStatus); ok && st.Signaled() {
			return 128 + int(st.Signal())
		}
		return ee.ExitCode()
	}
	return 127
}
