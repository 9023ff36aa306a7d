package sshtest

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"encoding/pem"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/crypto/ssh"
)

// Key kinds accepted by NewKey.
const (
	Ed25519 = "ed25519"
	ECDSA   = "ecdsa"
	RSA     = "rsa"
)

// GenerateKey returns a new private key of the given kind ("ed25519",
// "ecdsa" P-256 or "rsa" 2048 bits).
func GenerateKey(kind string) (crypto.Signer, error) {
	switch kind {
	case Ed25519, "":
		_, k, err := ed25519.GenerateKey(rand.Reader)
		return k, err
	case ECDSA:
		return ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	case RSA:
		return rsa.GenerateKey(rand.Reader, 2048)
	}
	return nil, fmt.Errorf("sshtest: unknown key kind %q", kind)
}

// NewKey generates a key of the given kind and writes it in OpenSSH format
// to dir/name (mode 0600, encrypted when passphrase is not empty) with its
// public half in dir/name.pub. It returns the private key path and a signer.
func NewKey(t testing.TB, dir, name, kind string, passphrase []byte) (string, ssh.Signer) {
	t.Helper()
	k, err := GenerateKey(kind)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, name)
	if err := WriteKey(path, k, passphrase); err != nil {
		t.Fatal(err)
	}
	s, err := ssh.NewSignerFromKey(k)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path+".pub", ssh.MarshalAuthorizedKey(s.PublicKey()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path, s
}

// WriteKey writes k to path in OpenSSH private key format, mode 0600.
func WriteKey(path string, k crypto.PrivateKey, passphrase []byte) error {
	var (
		b   *pem.Block
		err error
	)
	if len(passphrase) > 0 {
		b, err = ssh.MarshalPrivateKeyWithPassphrase(k, "sshtest", passphrase)
	} else {
		b, err = ssh.MarshalPrivateKey(k, "sshtest")
	}
	if err != nil {
		return fmt.Errorf("sshtest: marshal key: %w", err)
	}
	return os.WriteFile(path, pem.EncodeToMemory(b), 0o600)
}
