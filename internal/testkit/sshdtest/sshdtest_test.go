package sshdtest_test

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/provadev/prova/internal/testkit/sshdtest"
	"golang.org/x/crypto/ssh"
)

func TestStartRunsCommandsWithoutRCFile(t *testing.T) {
	c := sshdtest.Start(t, 2, sshdtest.Options{Ports: 2})
	if got := len(c.Addrs()); got != 4 {
		t.Fatalf("Addrs: %d, want 4", got)
	}
	for _, addr := range c.Addrs() {
		cl, err := ssh.Dial("tcp", addr, c.ClientConfig())
		if err != nil {
			t.Fatalf("dial %s: %v", addr, err)
		}
		s, err := cl.NewSession()
		if err != nil {
			t.Fatal(err)
		}
		// PYENV_ROOT is exported by root's ~/.bashrc on the test machines;
		// SetEnv SHLVL=1 must keep bash from reading it.
		out, err := s.Output(`echo "shlvl=$SHLVL pyenv=${PYENV_ROOT:-none}"`)
		cl.Close()
		if err != nil {
			t.Fatalf("run on %s: %v", addr, err)
		}
		if !strings.Contains(string(out), "pyenv=none") {
			t.Errorf("%s: rc file was read: %q", addr, out)
		}
	}
}

func TestStopRefusesConnections(t *testing.T) {
	c := sshdtest.Start(t, 2, sshdtest.Options{})
	c.Stop(0)
	_, err := net.DialTimeout("tcp", c.Addr(0), time.Second)
	if !errors.Is(err, syscall.ECONNREFUSED) {
		t.Fatalf("dial stopped instance: %v, want connection refused", err)
	}
	if err := sshdtest.Floor(context.Background(), []string{c.Addr(1)}, c.ClientConfig(), []string{"true"}); err != nil {
		t.Fatalf("other instance: %v", err)
	}
}

func TestFloorReportsFailingCommand(t *testing.T) {
	c := sshdtest.Start(t, 1, sshdtest.Options{})
	err := sshdtest.Floor(context.Background(), c.Addrs(), c.ClientConfig(), []string{"true", "exit 3"})
	var ee *ssh.ExitError
	if !errors.As(err, &ee) || ee.ExitStatus() != 3 {
		t.Fatalf("Floor: %v, want exit status 3", err)
	}
}

// BenchmarkFloor measures the plain x/crypto/ssh fan-out: N hosts spread
// over sshd instances of 16 ports each, 10 trivial commands per host.
func BenchmarkFloor(b *testing.B) {
	c := sshdtest.Start(b, 4, sshdtest.Options{Ports: sshdtest.MaxPorts})
	addrs := c.Addrs()
	cmds := make([]string, 10)
	for i := range cmds {
		cmds[i] = "true"
	}
	for _, n := range []int{10, 50, 200} {
		targets := make([]string, n)
		for i := range targets {
			targets[i] = addrs[i%len(addrs)]
		}
		b.Run(fmt.Sprintf("hosts=%d", n), func(b *testing.B) {
			for b.Loop() {
				if err := sshdtest.Floor(context.Background(), targets, c.ClientConfig(), cmds); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestStartAtDebugLogLevel: at LogLevel DEBUG1 sshd logs "Bind to port"
// for every port it binds; only a failed bind is a failure to start.
func TestStartAtDebugLogLevel(t *testing.T) {
	c := sshdtest.Start(t, 1, sshdtest.Options{Ports: 2, Extra: "LogLevel DEBUG1"})
	for _, addr := range c.Addrs() {
		cl, err := ssh.Dial("tcp", addr, c.ClientConfig())
		if err != nil {
			t.Fatalf("dial %s: %v", addr, err)
		}
		cl.Close()
	}
	if log := c.Instances[0].Log(); !strings.Contains(log, "debug1: Bind to port") {
		t.Errorf("sshd did not log at DEBUG1:\n%s", log)
	}
}
