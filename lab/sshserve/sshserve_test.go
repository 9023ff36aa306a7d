package sshserve_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/crypto/ssh"

	"github.com/provadev/prova/lab/sshserve"
)

// start serves srv on loopback and returns a client config for it; the
// test ends with Close and waits for Serve to return.
func start(t *testing.T, srv *sshserve.Server) (string, *ssh.ClientConfig) {
	t.Helper()
	dir := t.TempDir()
	host, err := sshserve.LoadOrCreateKey(filepath.Join(dir, "host"), "test", false)
	if err != nil {
		t.Fatal(err)
	}
	client, err := sshserve.NewKeyFile(filepath.Join(dir, "client"), sshserve.ECDSA, "test", nil)
	if err != nil {
		t.Fatal(err)
	}
	keys := &sshserve.AuthorizedKeys{}
	keys.Add(client.PublicKey())
	srv.Config = sshserve.Config(host, keys, "SSH-2.0-sshserve_test")
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	served := make(chan struct{})
	go func() { defer close(served); srv.Serve(ln) }()
	t.Cleanup(func() { srv.Close(); <-served })
	return ln.Addr().String(), &ssh.ClientConfig{
		User:            "root",
		Auth:            []ssh.AuthMethod{ssh.PublicKeys(client)},
		HostKeyCallback: ssh.FixedHostKey(host.PublicKey()),
	}
}

func dial(t *testing.T, addr string, cfg *ssh.ClientConfig) *ssh.Client {
	t.Helper()
	c, err := ssh.Dial("tcp", addr, cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// echo answers an exec with its type, command and environment on stdout
// and exits 3.
func echo(_ context.Context, s *sshserve.Session) {
	io.WriteString(s.Channel, s.Type+"|"+s.Command+"|"+strings.Join(s.Env, ","))
	s.Exit(3)
}

func TestExecGetsCommandEnvAndSendsStatus(t *testing.T) {
	addr, cfg := start(t, &sshserve.Server{Session: echo})
	sess, err := dial(t, addr, cfg).NewSession()
	if err != nil {
		t.Fatal(err)
	}
	if err := sess.Setenv("A", "1"); err != nil {
		t.Fatalf("env refused: %v", err)
	}
	var out bytes.Buffer
	sess.Stdout = &out
	err = sess.Run("echo hi")
	var ee *ssh.ExitError
	if !errors.As(err, &ee) || ee.ExitStatus() != 3 {
		t.Fatalf("Run: %v, want exit status 3", err)
	}
	if got, want := out.String(), "exec|echo hi|A=1"; got != want {
		t.Errorf("session saw %q, want %q", got, want)
	}
}

func TestPTYAndShellOnlyWhenEnabled(t *testing.T) {
	for _, on := range []bool{false, true} {
		addr, cfg := start(t, &sshserve.Server{Session: echo, PTY: on, Shell: on})
		c := dial(t, addr, cfg)
		sess, _ := c.NewSession()
		if err := sess.RequestPty("xterm", 24, 80, nil); (err == nil) != on {
			t.Errorf("PTY=%v: pty-req: %v", on, err)
		}
		if err := sess.Shell(); (err == nil) != on {
			t.Errorf("Shell=%v: shell: %v", on, err)
		}
		sess.Close()
	}
}

func TestOnlySFTPSubsystem(t *testing.T) {
	addr, cfg := start(t, &sshserve.Server{Session: echo})
	c := dial(t, addr, cfg)
	sess, _ := c.NewSession()
	if err := sess.RequestSubsystem("netconf"); err == nil {
		t.Error("netconf subsystem accepted")
	}
	sess, _ = c.NewSession()
	out, _ := sess.StdoutPipe() // RequestSubsystem does not copy Stdout
	if err := sess.RequestSubsystem("sftp"); err != nil {
		t.Fatalf("sftp subsystem: %v", err)
	}
	if b, _ := io.ReadAll(out); string(b) != "subsystem|sftp|" {
		t.Errorf("session saw %q", b)
	}
}

func TestSignalsAfterStartAndExitSignal(t *testing.T) {
	started := make(chan struct{})
	addr, cfg := start(t, &sshserve.Server{Session: func(_ context.Context, s *sshserve.Session) {
		close(started)
		s.ExitSignal(string(<-s.Signals))
	}})
	sess, _ := dial(t, addr, cfg).NewSession()
	if err := sess.Start("sleep"); err != nil {
		t.Fatal(err)
	}
	<-started
	if err := sess.Signal(ssh.SIGUSR1); err != nil {
		t.Fatal(err)
	}
	err := sess.Wait()
	var ee *ssh.ExitError
	if !errors.As(err, &ee) || ee.Signal() != "USR1" {
		t.Fatalf("Wait: %v, want killed by USR1", err)
	}
}

func TestClientClosingEndsContext(t *testing.T) {
	ended := make(chan error, 1)
	started := make(chan struct{})
	addr, cfg := start(t, &sshserve.Server{Session: func(ctx context.Context, s *sshserve.Session) {
		close(started)
		<-ctx.Done()
		ended <- ctx.Err()
	}})
	sess, _ := dial(t, addr, cfg).NewSession()
	if err := sess.Start("wait"); err != nil {
		t.Fatal(err)
	}
	<-started
	sess.Close()
	if err := <-ended; !errors.Is(err, context.Canceled) {
		t.Fatalf("context: %v", err)
	}
}

func TestBeforeStartDropsConnection(t *testing.T) {
	seen := make(chan string, 1)
	addr, cfg := start(t, &sshserve.Server{Session: echo, BeforeStart: func(s *sshserve.Session) bool {
		seen <- s.Command
		return s.Command != "crash"
	}})
	c := dial(t, addr, cfg)
	sess, _ := c.NewSession()
	if err := sess.Start("crash"); err == nil {
		t.Fatal("exec answered after BeforeStart refused it")
	}
	if err := c.Wait(); err == nil {
		t.Error("connection still open")
	}
	if got := <-seen; got != "crash" {
		t.Errorf("BeforeStart saw %q", got)
	}
}

func TestKeepaliveRefusedAndOnlySessionChannels(t *testing.T) {
	addr, cfg := start(t, &sshserve.Server{Session: echo})
	c := dial(t, addr, cfg)
	ok, _, err := c.SendRequest("keepalive@openssh.com", true, nil)
	if err != nil || ok {
		t.Errorf("keepalive: ok=%v err=%v, want a failure reply", ok, err)
	}
	_, _, err = c.OpenChannel("direct-tcpip", nil)
	var oce *ssh.OpenChannelError
	if !errors.As(err, &oce) || oce.Reason != ssh.UnknownChannelType {
		t.Errorf("direct-tcpip: %v, want unknown channel type", err)
	}
}

func TestUnknownKeyRefused(t *testing.T) {
	addr, cfg := start(t, &sshserve.Server{Session: echo})
	other, err := sshserve.NewKeyFile(filepath.Join(t.TempDir(), "k"), sshserve.Ed25519, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Auth = []ssh.AuthMethod{ssh.PublicKeys(other)}
	if c, err := ssh.Dial("tcp", addr, cfg); err == nil {
		c.Close()
		t.Fatal("unauthorized key accepted")
	}
}

func TestCloseEndsRunningSessions(t *testing.T) {
	started := make(chan struct{})
	ended := make(chan struct{})
	srv := &sshserve.Server{Session: func(ctx context.Context, s *sshserve.Session) {
		close(started)
		<-ctx.Done()
		close(ended)
	}}
	addr, cfg := start(t, srv)
	c := dial(t, addr, cfg)
	sess, _ := c.NewSession()
	if err := sess.Start("wait"); err != nil {
		t.Fatal(err)
	}
	<-started
	srv.Close()
	<-ended // Serve returns only after this (the cleanup waits for it)
	if err := c.Wait(); err == nil {
		t.Error("connection survived Close")
	}
	if _, err := ssh.Dial("tcp", addr, cfg); err == nil {
		t.Error("dial after Close succeeded")
	}
}

func TestKeys(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "id")
	a, err := sshserve.LoadOrCreateKey(p, "c", true)
	if err != nil {
		t.Fatal(err)
	}
	b, err := sshserve.LoadOrCreateKey(p, "c", true)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a.PublicKey().Marshal(), b.PublicKey().Marshal()) {
		t.Error("second LoadOrCreateKey made a new key")
	}
	pub, err := os.ReadFile(p + ".pub")
	if err != nil || !bytes.Equal(pub, ssh.MarshalAuthorizedKey(a.PublicKey())) {
		t.Errorf("public key file: %q %v", pub, err)
	}
	if st, _ := os.Stat(p); st.Mode().Perm() != 0o600 {
		t.Errorf("private key mode %v", st.Mode().Perm())
	}
	os.WriteFile(p, []byte("not a key"), 0o600)
	if _, err := sshserve.LoadOrCreateKey(p, "c", true); err == nil || !strings.Contains(err.Error(), p) {
		t.Errorf("unreadable key: %v, want an error naming %s", err, p)
	}
	// Encrypted keys: encrypted_test.go. RSA (slow to generate): the
	// sshconn tests through sshtest.NewKey.
	e := filepath.Join(dir, "ecdsa")
	s, err := sshserve.NewKeyFile(e, sshserve.ECDSA, "c", nil)
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := os.ReadFile(e)
	if k, err := ssh.ParsePrivateKey(raw); err != nil || !bytes.Equal(k.PublicKey().Marshal(), s.PublicKey().Marshal()) {
		t.Errorf("ecdsa: the key read back differs (%v)", err)
	}
	if _, err := sshserve.GenerateKey("dsa"); err == nil {
		t.Error("dsa key generated")
	}
	line := sshserve.KnownHostsLine("127.0.0.1:2222", a.PublicKey())
	if !strings.HasPrefix(line, "[127.0.0.1]:2222 ssh-ed25519 ") {
		t.Errorf("known_hosts line %q", line)
	}
}
