package sshtest

import (
	"context"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/pkg/sftp"
	"golang.org/x/crypto/ssh"

	"github.com/provadev/prova/lab/sshserve"
)

// Handler answers one exec request. stdin is the session's input, stdout
// and stderr its output streams. The returned value is sent as the exit
// status; a negative value -N is sent as "killed by signal N" instead
// (for example -15 for TERM). ctx is cancelled when the client closes the
// session or the connection ends; signals sent by the client arrive on
// Signals(ctx).
type Handler func(ctx context.Context, cmd string, stdin io.Reader, stdout, stderr io.Writer) int

// Server is an in-process SSH server listening on loopback.
type Server struct {
	Addr          string     // "127.0.0.1:port"
	Port          int        // the listening port
	HostKey       ssh.Signer // the server's host key
	ClientKeyFile string     // an accepted ed25519 client key (OpenSSH format, 0600)
	ClientKey     ssh.Signer // the same key as a signer

	handler  Handler
	srv      *sshserve.Server
	authKeys sshserve.AuthorizedKeys
	sftpDir  string
	sftpMem  sftp.Handlers
	served   chan struct{} // closed when srv.Serve returns
	mu       sync.Mutex
	commands []string
	stopped  bool
	drop     int // exec requests still allowed; -1 = unlimited
	opened   int // session channels opened
	// closeIdle session channels still to close as they open, each
	// reported on idleClosed (CloseIdleSessions).
	closeIdle  int
	idleClosed chan struct{}
}

// Option configures a Server.
type Option func(*Server)

// WithSFTPDir serves the "sftp" subsystem from the real filesystem,
// resolving relative paths against dir. By default the subsystem is backed
// by memory (sftp.InMemHandler), shared by all connections of the server.
func WithSFTPDir(dir string) Option { return func(s *Server) { s.sftpDir = dir } }

// WithHostKey makes the server present k (which may be a certificate
// signer) instead of a generated ed25519 host key.
func WithHostKey(k ssh.Signer) Option { return func(s *Server) { s.HostKey = k } }

// NewServer starts a server on 127.0.0.1:0 that answers exec requests with
// h (ShellHandler when h is nil). It is closed by t.Cleanup.
func NewServer(t testing.TB, h Handler, opts ...Option) *Server {
	t.Helper()
	if h == nil {
		h = ShellHandler
	}
	s := &Server{handler: h, drop: -1, served: make(chan struct{})}
	for _, o := range opts {
		o(s)
	}
	if s.HostKey == nil {
		k, err := GenerateKey(Ed25519)
		if err != nil {
			t.Fatal(err)
		}
		if s.HostKey, err = ssh.NewSignerFromKey(k); err != nil {
			t.Fatal(err)
		}
	}
	s.ClientKeyFile, s.ClientKey = NewKey(t, t.TempDir(), "id_ed25519", Ed25519, nil)
	s.AuthorizeKey(s.ClientKey.PublicKey())
	if s.sftpDir == "" {
		s.sftpMem = sftp.InMemHandler()
	}
	s.srv = &sshserve.Server{
		Config:        sshserve.Config(s.HostKey, &s.authKeys, ""),
		Session:       s.session,
		WrapConn:      func(c net.Conn) net.Conn { return newFaultConn(c, s) },
		BeforeStart:   func(ss *sshserve.Session) bool { return s.allowExec(untag(ss.Command)) },
		SessionOpened: s.sessionOpened,
		SessionClosed: s.sessionClosed,
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("sshtest: listen: %v", err)
	}
	s.Addr = ln.Addr().String()
	s.Port = ln.Addr().(*net.TCPAddr).Port
	go func() { defer close(s.served); s.srv.Serve(ln) }()
	t.Cleanup(s.Close)
	return s
}

// AuthorizeKey makes the server accept clients authenticating with key.
func (s *Server) AuthorizeKey(key ssh.PublicKey) { s.authKeys.Add(key) }

// KnownHostsLine is the server's entry for a known_hosts file
// ("[127.0.0.1]:port ssh-ed25519 AAAA...").
func (s *Server) KnownHostsLine() string {
	return sshserve.KnownHostsLine(s.Addr, s.HostKey.PublicKey())
}

// WriteKnownHosts writes KnownHostsLine to a new file in t.TempDir and
// returns its path.
func (s *Server) WriteKnownHosts(t testing.TB) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "known_hosts")
	if err := os.WriteFile(p, []byte(s.KnownHostsLine()+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// ClientConfig returns a client configuration that authenticates with
// ClientKey and accepts only this server's host key.
func (s *Server) ClientConfig() *ssh.ClientConfig {
	return &ssh.ClientConfig{
		User:            "test",
		Auth:            []ssh.AuthMethod{ssh.PublicKeys(s.ClientKey)},
		HostKeyCallback: ssh.FixedHostKey(s.HostKey.PublicKey()),
	}
}

// Commands returns every command received in exec requests, in order of
// arrival, across all connections. A first line "# prova-run:<tag>", which
// the sshconn transport puts before every command to find it again on
// cancellation, is left out here and in what handlers receive.
func (s *Server) Commands() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.commands...)
}

// Close stops the listener, closes every connection and waits for the
// handlers to return.
func (s *Server) Close() {
	s.srv.Close()
	<-s.served
}

// untag removes the "# prova-run:<tag>" and "export PROVA_RUN=<tag>"
// lines sshconn puts first.
func untag(cmd string) string {
	if rest, ok := strings.CutPrefix(cmd, "# prova-run:"); ok {
		if i := strings.IndexByte(rest, '\n'); i >= 0 {
			cmd = rest[i+1:]
		}
	}
	if rest, ok := strings.CutPrefix(cmd, "export PROVA_RUN="); ok {
		if i := strings.IndexByte(rest, '\n'); i >= 0 {
			cmd = rest[i+1:]
		}
	}
	return cmd
}

// allowExec records cmd and reports whether it may run (false: DropAfter
// says this connection must be dropped).
func (s *Server) allowExec(cmd string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.commands = append(s.commands, cmd)
	if s.drop == 0 {
		return false
	}
	if s.drop > 0 {
		s.drop--
	}
	return true
}
