// Package labtest starts a lab for Go tests: it builds the prova binary
// once per test process (the nodes' tools and commands run it) and starts
// an in-process lab in a temporary directory, closed by t.Cleanup. Client
// and Run talk to a node over real SSH, verifying its host key against the
// lab's known_hosts.
package labtest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
	"time"

	"golang.org/x/crypto/ssh"
	"golang.org/x/crypto/ssh/knownhosts"

	"github.com/provadev/prova/lab"
)

var build struct {
	once sync.Once
	path string
	err  error
}

// Binary builds ./cmd/prova once per test process and returns its path.
func Binary(t testing.TB) string {
	t.Helper()
	build.once.Do(func() {
		root, err := moduleRoot()
		if err != nil {
			build.err = err
			return
		}
		dir, err := os.MkdirTemp("", "prova-labtest-")
		if err != nil {
			build.err = err
			return
		}
		build.path = filepath.Join(dir, "prova")
		cmd := exec.Command("go", "build", "-o", build.path, "./cmd/prova")
		cmd.Dir = root
		if out, err := cmd.CombinedOutput(); err != nil {
			build.err = fmt.Errorf("go build ./cmd/prova: %v\n%s", err, out)
		}
	})
	if build.err != nil {
		t.Fatal(build.err)
	}
	return build.path
}

func moduleRoot() (string, error) {
	d, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return d, nil
		}
		if filepath.Dir(d) == d {
			return "", errors.New("labtest: go.mod not found")
		}
		d = filepath.Dir(d)
	}
}

// Start starts a lab of nodes nodes with scenario ("" = healthy).
func Start(t testing.TB, nodes int, scenario string) *lab.Lab {
	t.Helper()
	l, err := lab.Start(context.Background(), lab.Options{Dir: t.TempDir(), Nodes: nodes, Scenario: scenario, Binary: Binary(t)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	return l
}

// Config is an SSH client configuration for the lab: its client key and
// its known_hosts, checked strictly.
func Config(t testing.TB, l *lab.Lab) *ssh.ClientConfig {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(l.Dir(), "id_ed25519"))
	if err != nil {
		t.Fatal(err)
	}
	signer, err := ssh.ParsePrivateKey(b)
	if err != nil {
		t.Fatal(err)
	}
	hk, err := knownhosts.New(filepath.Join(l.Dir(), "known_hosts"))
	if err != nil {
		t.Fatal(err)
	}
	return &ssh.ClientConfig{User: "root", Auth: []ssh.AuthMethod{ssh.PublicKeys(signer)}, HostKeyCallback: hk, Timeout: 10 * time.Second}
}

// Dial connects to the named node.
func Dial(t testing.TB, l *lab.Lab, node string) (*ssh.Client, error) {
	t.Helper()
	for _, n := range l.Nodes() {
		if n.Name == node {
			return ssh.Dial("tcp", n.Address+":"+strconv.Itoa(n.Port), Config(t, l))
		}
	}
	t.Fatalf("no node %q", node)
	return nil, nil
}

// Client connects to the named node or fails the test; closed by Cleanup.
func Client(t testing.TB, l *lab.Lab, node string) *ssh.Client {
	t.Helper()
	c, err := Dial(t, l, node)
	if err != nil {
		t.Fatalf("ssh %s: %v", node, err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// Result is one remote command's outcome.
type Result struct {
	Stdout, Stderr string
	Status         int
}

// Run runs cmd in a new session. err is non-nil only when the command's
// status is unknown (connection lost, session failure).
func Run(c *ssh.Client, cmd string) (Result, error) {
	s, err := c.NewSession()
	if err != nil {
		return Result{}, err
	}
	defer s.Close()
	var out, errb bytes.Buffer
	s.Stdout, s.Stderr = &out, &errb
	err = s.Run(cmd)
	r := Result{Stdout: out.String(), Stderr: errb.String()}
	var ee *ssh.ExitError
	if errors.As(err, &ee) {
		r.Status = ee.ExitStatus()
		return r, nil
	}
	return r, err
}

// MustRun runs cmd on node and fails the test when its status is unknown.
func MustRun(t testing.TB, c *ssh.Client, cmd string) Result {
	t.Helper()
	r, err := Run(c, cmd)
	if err != nil {
		t.Fatalf("%s: %v", cmd, err)
	}
	return r
}
