// Package labtest starts a lab for Go tests: it builds the prova binary
// once per test process (the nodes' tools and commands run it) and starts
// an in-process lab in a temporary directory, closed by t.Cleanup. Client
// and Run talk to a node over real SSH, verifying its host key against the
// lab's known_hosts.
//
// A test package that uses Binary or Start runs its tests through M (from
// TestMain), which removes the built binary when the tests are done;
// Binary fails a test whose package does not, so no test leaves a binary
// behind. NeedRoot skips a test that needs root, or fails it under CI=true.
//
// It does not decide which scenarios or runbooks a test uses.
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
	once    sync.Once
	wrapped bool // M is running the tests
	dir     string
	path    string
	err     error
}

// TestingM is what M wraps: *testing.M, or what testscript.Main takes.
type TestingM interface{ Run() int }

type cleanM struct{ m TestingM }

func (c cleanM) Run() int {
	code := c.m.Run()
	if build.dir != "" {
		if err := os.RemoveAll(build.dir); err != nil {
			fmt.Fprintf(os.Stderr, "labtest: removing the test binary: %v\n", err)
			if code == 0 {
				code = 1
			}
		}
	}
	return code
}

// M wraps m so that running it removes, once every test has finished, the
// binary Binary built. Use it in TestMain:
//
//	func TestMain(m *testing.M) { os.Exit(labtest.M(m).Run()) }
//
// or pass labtest.M(m) to testscript.Main.
func M(m TestingM) TestingM {
	build.wrapped = true
	return cleanM{m}
}

// NeedRoot skips t when the process is not root (the lab's mount
// namespaces need it), or fails it under CI=true, where a missing
// component is a failure like any other.
func NeedRoot(t testing.TB) {
	t.Helper()
	if os.Geteuid() == 0 {
		return
	}
	if os.Getenv("CI") == "true" {
		t.Fatal("the lab's mount namespaces need root (see docs/lab.md); CI=true runs every lab test")
	}
	t.Skip("the lab's mount namespaces need root here (see docs/lab.md)")
}

// Binary builds ./cmd/prova once per test process and returns its path.
// The test package must run its tests through M.
func Binary(t testing.TB) string {
	t.Helper()
	if !build.wrapped {
		t.Fatal("labtest: the package's TestMain must run the tests through labtest.M, which removes the built binary afterwards")
	}
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
		build.dir = dir
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
