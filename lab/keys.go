package lab

import (
	"crypto/ed25519"
	"crypto/rand"
	"encoding/pem"
	"errors"
	"fmt"
	"os"

	"golang.org/x/crypto/ssh"
)

// loadOrCreateKey reads an OpenSSH ed25519 private key from path, creating
// it (and path.pub when pub is true) if it does not exist.
func loadOrCreateKey(path string, pub bool) (ssh.Signer, error) {
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
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return nil, fmt.Errorf("generate key: %w", err)
	}
	blk, err := ssh.MarshalPrivateKey(priv, "prova-lab")
	if err != nil {
		return nil, fmt.Errorf("encode key: %w", err)
	}
	if err := os.WriteFile(path, pem.EncodeToMemory(blk), 0o600); err != nil {
		return nil, fmt.Errorf("write key: %w", err)
	}
	s, err := ssh.NewSignerFromKey(priv)
	if err != nil {
		return nil, fmt.Errorf("key: %w", err)
	}
	if pub {
		line := ssh.MarshalAuthorizedKey(s.PublicKey())
		if err := os.WriteFile(path+".pub", line, 0o644); err != nil {
			return nil, fmt.Errorf("write key: %w", err)
		}
	}
	return s, nil
}
