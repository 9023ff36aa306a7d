package sshconn_test

import (
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/provadev/prova/engine/transport/sshconn"
	"github.com/provadev/prova/internal/testkit/sshdtest"
)

// TestMain lets the test binary act as a ProxyCommand: with
// SSHCONN_TEST_RELAY set it connects to host:port given as arguments,
// writes its pid to the file SSHCONN_TEST_RELAY names, and relays
// stdin/stdout, as `nc %h %p` would.
func TestMain(m *testing.M) {
	if pidFile := os.Getenv("SSHCONN_TEST_RELAY"); pidFile != "" {
		os.Exit(relay(pidFile, os.Args[1], os.Args[2]))
	}
	os.Exit(m.Run())
}

func relay(pidFile, host, port string) int {
	if err := os.WriteFile(pidFile, []byte(strconv.Itoa(os.Getpid())), 0o600); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	c, err := net.Dial("tcp", net.JoinHostPort(host, port))
	if err != nil {
		fmt.Fprintln(os.Stderr, "relay:", err)
		return 1
	}
	go func() { io.Copy(c, os.Stdin); c.(*net.TCPConn).CloseWrite() }()
	io.Copy(os.Stdout, c)
	return 0
}

func TestProxyCommandIsTheConnection(t *testing.T) {
	c := sshdtest.Start(t, 1, sshdtest.Options{})
	home := t.TempDir()
	pidFile := filepath.Join(home, "relay.pid")
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cfgFile := filepath.Join(home, "config")
	// HostName is what %h expands to; the address itself is unroutable,
	// so only the ProxyCommand can reach the server.
	writeFile(t, cfgFile, fmt.Sprintf("Host viaproxy\n  HostName 127.0.0.1\n  Port %d\n  ProxyCommand env SSHCONN_TEST_RELAY=%s %s %%h %%p\n",
		c.Port(0), pidFile, exe))
	var w warnings
	p := newPool(t, sshconn.Options{Home: home, SSHConfigFile: cfgFile, Warn: w.add})
	tg := target(c, 0, c.KnownHostsFile(t))
	tg.Address, tg.Port = "viaproxy", 0
	r, err := p.Resolve(tg)
	if err != nil || !strings.Contains(r.ProxyCommand, "%h %p") || r.Address != "127.0.0.1" {
		t.Fatalf("Resolve = %+v, %v", r, err)
	}
	out := run(t, p.Host(tg), "echo ok")
	if out.Stdout != "ok\n" {
		t.Errorf("stdout %q", out.Stdout)
	}
	if w.all() != "" {
		t.Errorf("warnings: %s", w.all())
	}
	pidText, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatalf("the ProxyCommand never ran: %v", err)
	}
	pid, _ := strconv.Atoi(string(pidText))
	p.Close()
	// Close waits for the command: it has been killed and reaped.
	if err := syscall.Kill(pid, 0); !errors.Is(err, syscall.ESRCH) {
		t.Errorf("ProxyCommand process %d still there after Close: %v", pid, err)
	}
}

func TestProxyCommandFailureNeverConnectsDirectly(t *testing.T) {
	c := sshdtest.Start(t, 1, sshdtest.Options{})
	home := t.TempDir()
	cfgFile := filepath.Join(home, "config")
	// The server is reachable directly, but the configured proxy fails:
	// prova must fail too, never bypass the proxy.
	writeFile(t, cfgFile, "Host 127.0.0.1\n  ProxyCommand echo proxy refused >&2; exit 3\n")
	p := newPool(t, sshconn.Options{Home: home, SSHConfigFile: cfgFile})
	_, err := p.Host(target(c, 0, c.KnownHostsFile(t))).Run(t.Context(), "true", nil, io.Discard, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "ProxyCommand") || !strings.Contains(err.Error(), "proxy refused") {
		t.Fatalf("err = %v, want the ProxyCommand failure with its stderr", err)
	}
}
