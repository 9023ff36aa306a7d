package sshserve

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"encoding/pem"
	"errors"
	"fmt"
	"os"

	"golang.org/x/crypto/ssh"
	"golang.org/x/crypto/ssh/knownhosts"
)

// Key kinds for GenerateKey.
const (
	Ed25519 = "ed25519"
	ECDSA   = "ecdsa"
	RSA     = "rsa"
)

// GenerateKey returns a new private key of the given kind: "ed25519" (also
// for ""), "ecdsa" (P-256) or "rsa" (2048 bits).
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
	return nil, fmt.Errorf("sshserve: unknown key kind %q", kind)
}

// WriteKey writes k to path in OpenSSH private key format with the given
// comment, mode 0600, encrypted when passphrase is not empty.
func WriteKey(path string, k crypto.PrivateKey, comment string, passphrase []byte) error {
	var (
		b   *pem.Block
		err error
	)
	if len(passphrase) > 0 {
		b, err = ssh.MarshalPrivateKeyWithPassphrase(k, comment, passphrase)
	} else {
		b, err = ssh.MarshalPrivateKey(k, comment)
	}
	if err != nil {
		return fmt.Errorf("encode key %s: %w", path, err)
	}
	if err := os.WriteFile(path, pem.EncodeToMemory(b), 0o600); err != nil {
		return fmt.Errorf("write key: %w", err)
	}
	return nil
}

// WritePublicKey writes pub to path as an authorized_keys line, mode 0644.
func WritePublicKey(path string, pub ssh.PublicKey) error {
	if err := os.WriteFile(path, ssh.MarshalAuthorizedKey(pub), 0o644); err != nil {
		return fmt.Errorf("write key: %w", err)
	}
	return nil
}

// NewKeyFile generates a key of the given kind, writes it to path (see
// WriteKey) and its public half to path.pub, and returns it as a signer.
func NewKeyFile(path, kind, comment string, passphrase []byte) (ssh.Signer, error) {
	k, err := GenerateKey(kind)
	if err != nil {
		return nil, err
	}
	if err := WriteKey(path, k, comment, passphrase); err != nil {
		return nil, err
	}
	s, err := ssh.NewSignerFromKey(k)
	if err != nil {
		return nil, fmt.Errorf("key %s: %w", path, err)
	}
	if err := WritePublicKey(path+".pub", s.PublicKey()); err != nil {
		return nil, err
	}
	return s, nil
}

// LoadOrCreateKey reads an unencrypted OpenSSH private key from path. When
// path does not exist it generates an ed25519 key with the given comment
// and writes it there (and path.pub when pub is set).
func LoadOrCreateKey(path, comment string, pub bool) (ssh.Signer, error) {
	b, err := os.ReadFile(path)
	if err == nil {
		s, err := ssh.ParsePrivateKey(b)
		if err != nil {
			return nil, fmt.Errorf("read key %s: %w", path, err)
		}
		return s, nil
	}
	if !errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("read key: %w", err)
	}
	if pub {
		return NewKeyFile(path, Ed25519, comment, nil)
	}
	k, err := GenerateKey(Ed25519)
	if err != nil {
		return nil, fmt.Errorf("generate key: %w", err)
	}
	if err := WriteKey(path, k, comment, nil); err != nil {
		return nil, err
	}
	return ssh.NewSignerFromKey(k)
}

// KnownHostsLine is the known_hosts entry of a server at addr
// ("host:port") with the given host key: "[127.0.0.1]:2222 ssh-ed25519
// AAAA..." (the port is left out when it is 22, as OpenSSH writes it).
func KnownHostsLine(addr string, key ssh.PublicKey) string {
	return knownhosts.Line([]string{knownhosts.Normalize(addr)}, key)
}
