package sshconn_test

import (
	"context"
	"crypto/rand"
	"errors"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/provadev/prova/engine/module"
	"github.com/provadev/prova/engine/transport/sshconn"
	"github.com/provadev/prova/internal/testkit/sshdtest"
	"github.com/provadev/prova/internal/testkit/sshtest"
	"golang.org/x/crypto/ssh"
	"golang.org/x/crypto/ssh/agent"
)

func TestKeyTypes(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{}
	var pubs []ssh.PublicKey
	for _, kind := range []string{sshtest.Ed25519, sshtest.ECDSA, sshtest.RSA} {
		f, s := sshtest.NewKey(t, dir, "id_"+kind, kind, nil)
		files[kind] = f
		pubs = append(pubs, s.PublicKey())
	}
	c := sshdtest.Start(t, 1, sshdtest.Options{AuthorizedKeys: pubs})
	kh := c.KnownHostsFile(t)
	for kind, f := range files {
		t.Run(kind, func(t *testing.T) {
			tg := target(c, 0, kh)
			tg.IdentityFiles = []string{f}
			run(t, newPool(t, sshconn.Options{}).Host(tg), "true")
		})
	}
}

// encryptedKey writes an ed25519 key encrypted with passphrase. ssh-keygen
// -a 1 keeps the bcrypt KDF cheap (x/crypto uses 16 rounds, about 20 s
// under -race); without ssh-keygen the x/crypto encoding is used.
func encryptedKey(t *testing.T, passphrase string) (string, ssh.PublicKey) {
	f := filepath.Join(t.TempDir(), "id_enc")
	if kg, err := exec.LookPath("ssh-keygen"); err == nil {
		out, err := exec.Command(kg, "-q", "-t", "ed25519", "-a", "1", "-N", passphrase, "-f", f).CombinedOutput()
		if err != nil {
			t.Fatalf("ssh-keygen: %v: %s", err, out)
		}
		return f, readPub(t, f+".pub")
	}
	f, s := sshtest.NewKey(t, filepath.Dir(f), "id_enc", sshtest.Ed25519, []byte(passphrase))
	return f, s.PublicKey()
}

func readPub(t *testing.T, path string) ssh.PublicKey {
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	k, _, _, _, err := ssh.ParseAuthorizedKey(data)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func TestEncryptedKeyPassphrase(t *testing.T) {
	f, pub := encryptedKey(t, "sesame")
	c := sshdtest.Start(t, 2, sshdtest.Options{AuthorizedKeys: []ssh.PublicKey{pub}})
	kh := c.KnownHostsFile(t)

	// No passphrase source: a clear error.
	tg := target(c, 0, kh)
	tg.IdentityFiles = []string{f}
	_, err := newPool(t, sshconn.Options{}).Host(tg).Run(context.Background(), "true", nil, nil, nil)
	if !module.IsUnreachable(err) || !strings.Contains(err.Error(), "encrypted") || !strings.Contains(err.Error(), f) {
		t.Fatalf("err = %v, want an unreachable error naming the encrypted key", err)
	}

	// With a callback: asked once for two hosts.
	var asked atomic.Int32
	p := newPool(t, sshconn.Options{Passphrase: func(file string) ([]byte, error) {
		asked.Add(1)
		if file != f {
			t.Errorf("passphrase asked for %s", file)
		}
		return []byte("sesame"), nil
	}})
	for i := range 2 {
		tg := target(c, i, kh)
		tg.IdentityFiles = []string{f}
		run(t, p.Host(tg), "true")
	}
	if n := asked.Load(); n != 1 {
		t.Errorf("passphrase asked %d times, want 1", n)
	}
}

// startAgent serves an in-process ssh-agent holding keys on a unix socket.
func startAgent(t *testing.T, keys ...any) string {
	t.Helper()
	kr := agent.NewKeyring()
	for _, k := range keys {
		if err := kr.Add(agent.AddedKey{PrivateKey: k}); err != nil {
			t.Fatal(err)
		}
	}
	sock := filepath.Join(t.TempDir(), "agent.sock")
	ln, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() { agent.ServeAgent(kr, c); c.Close() }()
		}
	}()
	return sock
}

func TestAgentAuth(t *testing.T) {
	k, err := sshtest.GenerateKey(sshtest.Ed25519)
	if err != nil {
		t.Fatal(err)
	}
	s, _ := ssh.NewSignerFromKey(k)
	c := sshdtest.Start(t, 1, sshdtest.Options{AuthorizedKeys: []ssh.PublicKey{s.PublicKey()}})
	kh := c.KnownHostsFile(t)
	sock := startAgent(t, k)

	tg := target(c, 0, kh)
	tg.IdentityFiles, tg.IdentitiesOnly = nil, false // nothing but the agent
	p := newPool(t, sshconn.Options{Agent: true, Env: []string{"SSH_AUTH_SOCK=" + sock}})
	run(t, p.Host(tg), "true")

	// IdentitiesOnly with a file the agent does not hold: the agent key is
	// not offered, so authentication fails and says what was tried.
	other, _ := sshtest.NewKey(t, t.TempDir(), "other", sshtest.Ed25519, nil)
	tg.IdentityFiles, tg.IdentitiesOnly = []string{other}, true
	p = newPool(t, sshconn.Options{Agent: true, Env: []string{"SSH_AUTH_SOCK=" + sock}})
	_, err = p.Host(tg).Run(context.Background(), "true", nil, nil, nil)
	if !module.IsUnreachable(err) || !strings.Contains(err.Error(), "authenticate") {
		t.Fatalf("err = %v, want an authentication failure", err)
	}
}

// An identity file whose public half is in the agent is not read: its
// passphrase is not asked, the agent's key is used. Without an agent the
// .pub is not read at all (TestEncryptedKeyPassphrase: the file itself is).
func TestIdentityFileInAgentNotRead(t *testing.T) {
	f, pub := encryptedKey(t, "sesame")
	data, err := os.ReadFile(f)
	if err != nil {
		t.Fatal(err)
	}
	raw, err := ssh.ParseRawPrivateKeyWithPassphrase(data, []byte("sesame"))
	if err != nil {
		t.Fatal(err)
	}
	c := sshdtest.Start(t, 1, sshdtest.Options{AuthorizedKeys: []ssh.PublicKey{pub}})
	sock := startAgent(t, raw)
	tg := target(c, 0, c.KnownHostsFile(t))
	tg.IdentityFiles, tg.IdentitiesOnly = []string{f}, true
	var asked atomic.Int32
	p := newPool(t, sshconn.Options{Agent: true, Env: []string{"SSH_AUTH_SOCK=" + sock},
		Passphrase: func(string) ([]byte, error) { asked.Add(1); return []byte("sesame"), nil }})
	run(t, p.Host(tg), "true")
	if n := asked.Load(); n != 0 {
		t.Errorf("passphrase of a key in the agent asked %d times, want 0", n)
	}
}

func TestUserCertificate(t *testing.T) {
	dir := t.TempDir()
	_, ca := sshtest.NewKey(t, dir, "user_ca", sshtest.Ed25519, nil)
	f, s := sshtest.NewKey(t, dir, "id_ed25519", sshtest.Ed25519, nil)
	c := sshdtest.Start(t, 1, sshdtest.Options{UserCAKeys: []ssh.PublicKey{ca.PublicKey()}})
	tg := target(c, 0, c.KnownHostsFile(t))
	tg.IdentityFiles = []string{f} // not in authorized_keys: only the certificate can work
	_, err := newPool(t, sshconn.Options{}).Host(tg).Run(context.Background(), "true", nil, nil, nil)
	if err == nil {
		t.Fatal("key without certificate was accepted")
	}
	cert := &ssh.Certificate{Key: s.PublicKey(), CertType: ssh.UserCert, KeyId: "test",
		ValidPrincipals: []string{c.User}, ValidBefore: ssh.CertTimeInfinity,
		Permissions: ssh.Permissions{Extensions: map[string]string{"permit-pty": ""}}}
	if err := cert.SignCert(rand.Reader, ca); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(f+"-cert.pub", ssh.MarshalAuthorizedKey(cert), 0o644); err != nil {
		t.Fatal(err)
	}
	run(t, newPool(t, sshconn.Options{}).Host(tg), "true")
}

func TestMissingIdentityFileNamed(t *testing.T) {
	c := sshdtest.Start(t, 1, sshdtest.Options{})
	tg := target(c, 0, c.KnownHostsFile(t))
	tg.IdentityFiles = []string{filepath.Join(t.TempDir(), "nope")}
	_, err := newPool(t, sshconn.Options{}).Host(tg).Run(context.Background(), "true", nil, nil, nil)
	var u interface{ Unreachable() bool }
	if !errors.As(err, &u) || !strings.Contains(err.Error(), "nope") {
		t.Fatalf("err = %v, want unreachable naming the missing file", err)
	}
}
