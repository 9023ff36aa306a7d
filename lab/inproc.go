package lab

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"time"

	"github.com/provadev/prova/lab/sim"
)

// An SSH command that is a plain call of a simulated tool (plaincall.go)
// runs inside the lab server: no "prova lab nsexec" process, no mount
// namespace, no /bin/sh and no "prova lab sim" process. It is the same
// Tool.Run on the same Env the node's bin script would reach, so the
// output, the exit status, the state it reads and writes and the audit
// entry are the same; only the cost differs (about 25 ms of CPU per
// command through processes, see docs/lab.md). A tool opts in with
// sim.Tool.InProcess; any other command goes to /bin/sh as before.

// inProcess returns the plain call and the command's environment when
// command may run in process on this node.
func (s *session) inProcess(command, id string) (plainCall, []string, bool) {
	n := s.node
	if !n.lab.inProcess {
		return plainCall{}, nil, false
	}
	env := append(s.baseEnv(id), s.env...)
	pc, ok := parsePlain(command, func(k string) string { return lookupEnv(env, k) })
	if !ok {
		return plainCall{}, nil, false
	}
	tool, ok := n.lab.table.Lookup(pc.name)
	if !ok || !tool.InProcess {
		return plainCall{}, nil, false
	}
	env = append(env, pc.env...)
	if !s.resolvesToNodeBin(pc.name, lookupEnv(env, "PATH")) {
		return plainCall{}, nil, false
	}
	return pc, env, true
}

// resolvesToNodeBin reports whether sh would find name in the node's bin
// directory first on path: the node has the tool and nothing earlier on
// path shadows it.
func (s *session) resolvesToNodeBin(name, path string) bool {
	bin := filepath.Join(s.node.dir, "bin")
	for _, dir := range strings.Split(path, ":") {
		if dir == "" || !filepath.IsAbs(dir) {
			return false // the working directory: the shell's business
		}
		st, err := os.Stat(filepath.Join(dir, name))
		if filepath.Clean(dir) == bin {
			return err == nil && st.Mode().IsRegular()
		}
		if err == nil && !st.IsDir() && st.Mode()&0o111 != 0 {
			return false
		}
	}
	return false
}

// runInProcess runs the tool of pc and returns its exit status. A panic
// in a simulator is reported on stderr with its stack and ends the
// command with status 70 (EX_SOFTWARE); it never takes the lab down.
func (s *session) runInProcess(ctx context.Context, pc plainCall, env []string, id string) (status int) {
	n := s.node
	// The simulators write a line at a time; straight to the channel each
	// line was an SSH packet and a write(2): a quarter of the lab's CPU on
	// a 500-node verify (1,000-row tables). The output is buffered and
	// flushed when the tool is done, before it sleeps (progress a tool
	// prints while it works still arrives as it goes) and before it reads
	// its input.
	stdout := bufio.NewWriterSize(s.ch, 32<<10)
	stderr := bufio.NewWriterSize(s.ch.Stderr(), 4<<10)
	flush := func() {
		_ = stdout.Flush() // a closed channel: the client is gone, nobody to tell
		_ = stderr.Flush()
	}
	defer flush()
	e := &sim.Env{
		Dir: n.lab.dir, Node: n.model.Name, CmdID: id, Args: pc.args,
		Stdin: flushingReader{s.ch, flush}, Stdout: stdout, Stderr: stderr,
		Getenv: func(k string) string { return lookupEnv(env, k) },
		Now:    time.Now,
		Sleep: func(ctx context.Context, d time.Duration) error {
			flush()
			return sim.SleepContext(ctx, d)
		},
		Memo: n.lab.memo,
	}
	n.lab.inProcRuns.Add(1)
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintf(stderr, "prova lab: simulator %s panicked: %v\n%s", pc.name, r, debug.Stack())
			status = 70
		}
	}()
	return n.lab.table.Run(ctx, pc.name, e)
}

// flushingReader flushes the command's output before each read of its
// input, so a tool that prompts shows the prompt before it waits.
type flushingReader struct {
	r     io.Reader
	flush func()
}

func (f flushingReader) Read(p []byte) (int, error) {
	f.flush()
	return f.r.Read(p)
}

// lookupEnv returns the last value of key in env (NAME=value entries).
func lookupEnv(env []string, key string) string {
	for i := len(env) - 1; i >= 0; i-- {
		if k, v, ok := strings.Cut(env[i], "="); ok && k == key {
			return v
		}
	}
	return ""
}
