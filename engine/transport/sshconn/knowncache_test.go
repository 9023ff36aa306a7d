package sshconn

import (
	"net"
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/crypto/ssh"
	"golang.org/x/crypto/ssh/knownhosts"

	"github.com/provadev/prova/internal/testkit/sshtest"
)

func TestKnownCacheRereadsAfterAppend(t *testing.T) {
	ka, _ := sshtest.GenerateKey(sshtest.Ed25519)
	kb, _ := sshtest.GenerateKey(sshtest.Ed25519)
	pa, _ := ssh.NewPublicKey(ka.Public())
	pb, _ := ssh.NewPublicKey(kb.Public())
	file := filepath.Join(t.TempDir(), "known_hosts")
	os.WriteFile(file, []byte(knownhosts.Line([]string{"[127.0.0.1]:2201"}, pa)+"\n"), 0o600)
	var c knownCache
	remote := &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 2201}
	cb, err := c.callback([]string{file})
	if err != nil || cb("127.0.0.1:2201", remote, pa) != nil {
		t.Fatalf("first read: %v", err)
	}
	cb2, _ := c.callback([]string{file})
	if cb2 == nil || cb2("127.0.0.1:2202", remote, pb) == nil {
		t.Fatal("b must not be known yet")
	}
	f, _ := os.OpenFile(file, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(knownhosts.Line([]string{"[127.0.0.1]:2202"}, pb) + "\n")
	f.Close()
	cb3, err := c.callback([]string{file})
	if err != nil || cb3("127.0.0.1:2202", &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 2202}, pb) != nil {
		t.Fatalf("an appended key must be seen: %v", err)
	}
}

func TestKnownCacheAuthorityLines(t *testing.T) {
	file := filepath.Join(t.TempDir(), "known_hosts")
	os.WriteFile(file, []byte("host1 ssh-ed25519 AAAA\n  @cert-authority *.lab ssh-ed25519 BBBB\n"), 0o600)
	var c knownCache
	if c.isAuthority(file, 1) || !c.isAuthority(file, 2) {
		t.Fatal("line 2, and only line 2, is an authority")
	}
	// A rewrite (new size) is read again.
	os.WriteFile(file, []byte("@cert-authority * ssh-ed25519 CCCC\nhost1 ssh-ed25519 AAAA\nhost2 ssh-ed25519 DDDD\n"), 0o600)
	if !c.isAuthority(file, 1) || c.isAuthority(file, 2) {
		t.Error("the rewritten file was not read again")
	}
	if c.isAuthority(filepath.Join(t.TempDir(), "missing"), 1) {
		t.Error("a missing file has an authority")
	}
}
