package sshtest

import (
	"crypto"
	"path/filepath"
	"testing"

	"golang.org/x/crypto/ssh"

	"github.com/provadev/prova/lab/sshserve"
)

// Key kinds accepted by NewKey.
const (
	Ed25519 = sshserve.Ed25519
	ECDSA   = sshserve.ECDSA
	RSA     = sshserve.RSA
)

// GenerateKey returns a new private key of the given kind ("ed25519",
// "ecdsa" P-256 or "rsa" 2048 bits).
func GenerateKey(kind string) (crypto.Signer, error) { return sshserve.GenerateKey(kind) }

// NewKey generates a key of the given kind and writes it in OpenSSH format
// to dir/name (mode 0600, encrypted when passphrase is not empty) with its
// public half in dir/name.pub. It returns the private key path and a signer.
func NewKey(t testing.TB, dir, name, kind string, passphrase []byte) (string, ssh.Signer) {
	t.Helper()
	path := filepath.Join(dir, name)
	s, err := sshserve.NewKeyFile(path, kind, "sshtest", passphrase)
	if err != nil {
		t.Fatal(err)
	}
	return path, s
}
