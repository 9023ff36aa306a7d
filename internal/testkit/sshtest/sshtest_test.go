package sshtest_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/pkg/sftp"
	"github.com/provadev/prova/internal/testkit/sshtest"
	"golang.org/x/crypto/ssh"
)

func dial(t *testing.T, s *sshtest.Server) *ssh.Client {
	t.Helper()
	c, err := ssh.Dial("tcp", s.Addr, s.ClientConfig())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

func TestShellHandlerAndRecord(t *testing.T) {
	s := sshtest.NewServer(t, nil)
	c := dial(t, s)
	sess, _ := c.NewSession()
	var out bytes.Buffer
	sess.Stdout = &out
	err := sess.Run("echo hi; exit 3")
	var ee *ssh.ExitError
	if !errors.As(err, &ee) || ee.ExitStatus() != 3 || out.String() != "hi\n" {
		t.Fatalf("err=%v out=%q", err, out.String())
	}
	sess, _ = c.NewSession()
	sess.Run("# prova-run:abc\ntrue")
	if diff := cmp.Diff([]string{"echo hi; exit 3", "true"}, s.Commands()); diff != "" {
		t.Errorf("Commands (-want +got):\n%s", diff)
	}
}

func TestSignalReachesHandler(t *testing.T) {
	got := make(chan ssh.Signal, 1)
	started := make(chan struct{})
	s := sshtest.NewServer(t, func(ctx context.Context, _ string, _ io.Reader, _, _ io.Writer) int {
		close(started)
		got <- <-sshtest.Signals(ctx)
		return -15
	})
	sess, _ := dial(t, s).NewSession()
	if err := sess.Start("x"); err != nil {
		t.Fatal(err)
	}
	<-started
	sess.Signal(ssh.SIGTERM)
	err := sess.Wait()
	var ee *ssh.ExitError
	if !errors.As(err, &ee) || ee.Signal() != "TERM" {
		t.Fatalf("Wait = %v, want killed by TERM", err)
	}
	if sig := <-got; sig != ssh.SIGTERM {
		t.Errorf("handler got %q", sig)
	}
}

func TestWrongKeyRefused(t *testing.T) {
	s := sshtest.NewServer(t, nil)
	_, other := sshtest.NewKey(t, t.TempDir(), "k", sshtest.ECDSA, nil)
	cfg := s.ClientConfig()
	cfg.Auth = []ssh.AuthMethod{ssh.PublicKeys(other)}
	if _, err := ssh.Dial("tcp", s.Addr, cfg); err == nil {
		t.Fatal("unauthorized key accepted")
	}
	s.AuthorizeKey(other.PublicKey())
	if c, err := ssh.Dial("tcp", s.Addr, cfg); err != nil {
		t.Fatalf("after AuthorizeKey: %v", err)
	} else {
		c.Close()
	}
}

func TestSFTPInMemoryAndDir(t *testing.T) {
	dir := t.TempDir()
	for name, s := range map[string]*sshtest.Server{
		"memory": sshtest.NewServer(t, nil),
		"dir":    sshtest.NewServer(t, nil, sshtest.WithSFTPDir(dir)),
	} {
		t.Run(name, func(t *testing.T) {
			sc, err := sftp.NewClient(dial(t, s))
			if err != nil {
				t.Fatal(err)
			}
			defer sc.Close()
			f, err := sc.Create("/f.txt")
			if name == "dir" {
				f, err = sc.Create(filepath.Join(dir, "f.txt"))
			}
			if err != nil {
				t.Fatal(err)
			}
			f.Write([]byte("data"))
			f.Close()
			if name == "dir" {
				if b, err := os.ReadFile(filepath.Join(dir, "f.txt")); err != nil || string(b) != "data" {
					t.Errorf("file on disk: %q %v", b, err)
				}
			}
		})
	}
}

func TestDropAfterClosesConnection(t *testing.T) {
	s := sshtest.NewServer(t, nil)
	s.DropAfter(0)
	c := dial(t, s)
	sess, _ := c.NewSession()
	if err := sess.Run("true"); err == nil {
		t.Fatal("command ran after DropAfter(0)")
	}
	c.Wait() // returns only because the server dropped the connection
}
